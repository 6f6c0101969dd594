import type { InitiateInput, PushPaymentProvider } from '../../domain/payment-methods/payment-provider.ts';
import { toWireTime } from '../../domain/shared/clock.ts';
import { formatMinor } from '../../domain/shared/money.ts';
import { buildCashVoucher } from './voucher.ts';

/** CASH: a voucher with a reference number and an ITF barcode, payable at the network's agents until its due date. */
export class CashProvider implements PushPaymentProvider {
  readonly type = 'CASH' as const;
  readonly supportsRecurring = true;

  constructor(private readonly decimalsOf: (currency: string) => number) {}

  prepare(input: InitiateInput): ReturnType<PushPaymentProvider['prepare']> {
    const voucher = buildCashVoucher({
      orderId: input.orderId,
      amountMinor: input.charged.amountMinor,
      currency: input.charged.currency,
      dueDate: input.expiresAt,
      sequence: input.sequence,
    });
    return {
      ok: true,
      ref: voucher.reference,
      instructions: {
        type: 'CASH',
        reference: voucher.reference,
        barcode: voucher.barcode.value,
        amount: formatMinor(input.charged.amountMinor, this.decimalsOf(input.charged.currency)),
        currency: input.charged.currency,
        due_date: toWireTime(input.expiresAt),
        provider: input.method.cashProvider?.name ?? 'Cash',
      },
    };
  }
}
