import type { CurrencyTable } from '../currencies/currency.ts';
import type { Locale, PageLanguage } from './language.ts';
import { formatMinor } from './money.ts';

/**
 * Where a currency is at home: a payer whose header names a language but not a region writes
 * the currency's money the way its home country does (`pt` + BRL → pt-BR, `R$ 49,90`; `es` + ARS
 * → es-AR, `$ 1.234,50`). EUR has no single home, so the language alone decides.
 */
const HOME_REGION: Readonly<Record<string, string>> = {
  ARS: 'AR',
  BRL: 'BR',
  CLP: 'CL',
  COP: 'CO',
  MXN: 'MX',
  PEN: 'PE',
  USD: 'US',
  UYU: 'UY',
};

/** The BCP 47 tag money is written in: the payer's own region when they named one, else the currency's home. */
export function moneyLocale(language: PageLanguage, currency: string): string {
  const region = language.region ?? HOME_REGION[currency];
  return region ? `${language.locale}-${region}` : language.locale;
}

const formats = new Map<string, Intl.NumberFormat>();

/** Intl.NumberFormat objects are costly to build and pages format many amounts: one per (locale, currency). */
function numberFormat(locale: string, currency: string | null, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${currency ?? ''}|${decimals}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, {
      ...(currency ? { style: 'currency', currency } : {}),
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    if (formats.size > 500) {
      // Locales come from request headers: what is kept stays bounded.
      formats.clear();
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * An amount as a reader of `language` writes it: `R$ 49,90`, `$ 1.234,50` (es-AR, ARS),
 * `$1,234.50` (es-MX, MXN), `$12.345` (CLP has no decimals). Crypto currencies have no ISO 4217
 * code for Intl, so they are the number in the reader's style with the code after it
 * (`12,500000 USDT`). The digits are the exact minor units (Intl formats the decimal string,
 * never a float).
 */
export function formatMoney(
  amountMinor: bigint,
  currency: string,
  currencies: CurrencyTable,
  language: PageLanguage | Locale,
): string {
  const lang = typeof language === 'string' ? { locale: language, region: null } : language;
  const decimals = currencies.decimalsOf(currency);
  // Intl takes a decimal string exactly (no rounding through a double).
  const exact = formatMinor(amountMinor, decimals) as `${number}`;
  const crypto = currencies.get(currency)?.isCrypto ?? false;
  if (crypto) {
    return `${numberFormat(moneyLocale(lang, currency), null, decimals).format(exact)} ${currency}`;
  }
  return numberFormat(moneyLocale(lang, currency), currency, decimals).format(exact);
}
