import type { InitiateInput, PushPaymentProvider } from '../../domain/payment-methods/payment-provider.ts';
import { formatMinor } from '../../domain/shared/money.ts';
import { mod10CheckDigit } from '../cash/voucher.ts';

/**
 * BANK_TRANSFER: the merchant's account and a reference the payer must quote, so the transfer
 * can be matched to its order. The check digit catches a mistyped reference.
 */
export class BankTransferProvider implements PushPaymentProvider {
  readonly type = 'BANK_TRANSFER' as const;
  readonly supportsRecurring = true;

  constructor(private readonly decimalsOf: (currency: string) => number) {}

  prepare(input: InitiateInput): ReturnType<PushPaymentProvider['prepare']> {
    const bank = input.settings.bank;
    if (!bank) {
      return {
        ok: false,
        error: { code: 'NOT_CONFIGURED', message: 'the merchant has no bank account', retryable: false },
      };
    }
    const digits = input.sequence.toString().padStart(10, '0');
    const reference = `CB${digits}${mod10CheckDigit(digits)}`;
    return {
      ok: true,
      ref: reference,
      instructions: {
        type: 'BANK_TRANSFER',
        reference,
        bank_name: bank.bankName,
        account_holder: bank.accountHolder,
        account_number: bank.accountNumber,
        routing: bank.routing,
        amount: formatMinor(input.charged.amountMinor, this.decimalsOf(input.charged.currency)),
        currency: input.charged.currency,
      },
    };
  }
}
