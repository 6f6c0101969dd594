import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import type { PaymentMethod } from '../../domain/payment-methods/payment-method.ts';
import { formatMinor } from '../../domain/shared/money.ts';

/**
 * What a payer calls a method: "Card", "PIX", "Crypto (USDT on Ethereum)", "Bank transfer",
 * "Cash (OXXO)". Kept in English in every language, like the field labels, so that tests and
 * support conversations can name a choice the same way everywhere.
 */
export function methodName(method: Pick<PaymentMethod, 'type' | 'currency' | 'network' | 'cashProvider'>): string {
  switch (method.type) {
    case 'CARD':
      return 'Card';
    case 'PIX':
      return 'PIX';
    case 'CRYPTO_ONCHAIN':
      return `Crypto (${method.currency} on ${method.network?.name ?? 'chain'})`;
    case 'BANK_TRANSFER':
      return 'Bank transfer';
    case 'CASH':
      return method.cashProvider ? `Cash (${method.cashProvider.name})` : 'Cash';
  }
}

/** `1690n` USD → `16.90 USD`: exact digits from minor units, the code after (no float, no rounding). */
export function formatAmount(amountMinor: bigint, currency: string, currencies: CurrencyTable): string {
  return `${formatMinor(amountMinor, currencies.decimalsOf(currency))} ${currency}`;
}
