import type { CurrencyTable } from '../currencies/currency.ts';
import { compareUsdValue, toMinorUnits } from './money.ts';

/** The interface's bound on one charge, in USD cents, inclusive at both ends. */
export const MIN_USD_CENTS = 10n;
export const MAX_USD_CENTS = 300_000n;

/**
 * Converts a wire amount to minor units of `currencyCode` and checks the USD-equivalent bound.
 * Returns the amount or the messages explaining why it is refused (prefixed with `field`).
 */
export function parseBoundedAmount(
  field: string,
  value: number,
  currencyCode: string,
  currencies: CurrencyTable,
  opts: { allowZero?: boolean } = {},
): { ok: true; minor: bigint } | { ok: false; messages: string[] } {
  const currency = currencies.get(currencyCode);
  if (!currency) {
    return { ok: false, messages: [] };
  }
  let minor: bigint;
  try {
    minor = toMinorUnits(value, currency.decimals);
  } catch {
    return { ok: false, messages: [`${field} must be a finite number`] };
  }
  if (opts.allowZero && minor === 0n) {
    return { ok: true, minor };
  }
  if (minor <= 0n) {
    return { ok: false, messages: [`${field} must be greater than 0 after rounding to ${currency.decimals} decimals`] };
  }
  if (
    compareUsdValue(minor, currency.decimals, currency.usdRate, MIN_USD_CENTS) < 0 ||
    compareUsdValue(minor, currency.decimals, currency.usdRate, MAX_USD_CENTS) > 0
  ) {
    return {
      ok: false,
      messages: [
        `${field} must be between 0.1 and 3000 USD (converted from ${currencyCode} at the service's rate table)`,
      ],
    };
  }
  return { ok: true, minor };
}
