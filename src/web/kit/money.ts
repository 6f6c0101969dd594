import type { CurrencyTable } from '../../domain/currencies/currency.ts';
import type { PageLanguage } from '../../domain/shared/language.ts';
import { decimalToMinor, parseDecimal } from '../../domain/shared/money.ts';
import { formatMoney } from '../../domain/shared/money-format.ts';

// Money as the payer writes it is worded by the domain too (e-mails to payers): one function for both.
export { formatMoney, moneyLocale } from '../../domain/shared/money-format.ts';

/**
 * An amount the instructions carry as a decimal text (`"49.90"`, the wire form) written as the
 * reader writes money. The text was made from minor units with the currency's decimals, so the
 * conversion is exact; anything else is shown as it is, with its code.
 */
export function formatDecimalMoney(
  text: string,
  currency: string,
  currencies: CurrencyTable,
  language: PageLanguage,
): string {
  const decimal = parseDecimal(text);
  const decimals = currencies.get(currency)?.decimals;
  if (!decimal || decimals === undefined || decimal.scale > decimals) {
    return `${text} ${currency}`;
  }
  return formatMoney(decimalToMinor(decimal, decimals), currency, currencies, language);
}
