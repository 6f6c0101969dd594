import type { InitiateInput, PushPaymentProvider } from '../../domain/payment-methods/payment-provider.ts';
import type { PaymentInstructions } from '../../domain/payment-orders/payment-order.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { buildPixBrCode } from './br-code.ts';

/** PIX: a dynamic-amount BR Code for the merchant's own key; the order id is the txid (22 alphanumerics). */
export class PixProvider implements PushPaymentProvider {
  readonly type = 'PIX' as const;
  readonly supportsRecurring = true;

  prepare(input: InitiateInput): ReturnType<PushPaymentProvider['prepare']> {
    const pix = input.settings.pix;
    if (!pix) {
      return { ok: false, error: { code: 'NOT_CONFIGURED', message: 'the merchant has no PIX key', retryable: false } };
    }
    try {
      const payload = buildPixBrCode({
        pixKey: pix.key,
        amountMinor: input.charged.amountMinor,
        merchantName: pix.merchantName,
        merchantCity: pix.city,
        txid: input.orderId,
      });
      const instructions: PaymentInstructions = {
        type: 'PIX',
        pix_payload: payload,
        txid: input.orderId,
        expires_at: toWireTime(input.expiresAt),
      };
      return { ok: true, instructions, ref: input.orderId };
    } catch (error) {
      return { ok: false, error: { code: 'REJECTED_INPUT', message: (error as Error).message, retryable: false } };
    }
  }
}
