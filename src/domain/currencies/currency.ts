import type { Rate } from '../shared/money.ts';
import { parseRate } from '../shared/money.ts';

/** A supported currency and its rate to the US dollar (units of the currency per 1 USD). */
export type Currency = {
  code: string;
  name: string;
  decimals: number;
  usdRate: Rate;
  isCrypto: boolean;
};

export type CurrencyDefinition = { code: string; name: string; decimals: number; usd_rate: string; is_crypto: boolean };

/**
 * The default table. Rates are reference values for a fresh install; operators replace them
 * with `RATES_FILE` (see docs/operations.md). Kept as decimal strings so no float enters.
 */
export const DEFAULT_CURRENCIES: readonly CurrencyDefinition[] = [
  { code: 'USD', name: 'US Dollar', decimals: 2, usd_rate: '1', is_crypto: false },
  { code: 'EUR', name: 'Euro', decimals: 2, usd_rate: '0.92', is_crypto: false },
  { code: 'ARS', name: 'Argentine Peso', decimals: 2, usd_rate: '1180', is_crypto: false },
  { code: 'BRL', name: 'Brazilian Real', decimals: 2, usd_rate: '5.40', is_crypto: false },
  { code: 'CLP', name: 'Chilean Peso', decimals: 0, usd_rate: '940', is_crypto: false },
  { code: 'COP', name: 'Colombian Peso', decimals: 2, usd_rate: '4100', is_crypto: false },
  { code: 'MXN', name: 'Mexican Peso', decimals: 2, usd_rate: '18.50', is_crypto: false },
  { code: 'PEN', name: 'Peruvian Sol', decimals: 2, usd_rate: '3.75', is_crypto: false },
  { code: 'UYU', name: 'Uruguayan Peso', decimals: 2, usd_rate: '40.20', is_crypto: false },
  { code: 'USDT', name: 'Tether USD', decimals: 6, usd_rate: '1', is_crypto: true },
  { code: 'USDC', name: 'USD Coin', decimals: 6, usd_rate: '1', is_crypto: true },
  { code: 'BTC', name: 'Bitcoin', decimals: 8, usd_rate: '0.0000105', is_crypto: true },
  { code: 'ETH', name: 'Ether', decimals: 18, usd_rate: '0.00029', is_crypto: true },
];

/** The rate table the service converts with. Immutable once built; a refresh builds a new one. */
export class CurrencyTable {
  private readonly byCode: ReadonlyMap<string, Currency>;

  constructor(definitions: readonly CurrencyDefinition[]) {
    const map = new Map<string, Currency>();
    for (const def of definitions) {
      const rate = parseRate(def.usd_rate);
      if (!rate) {
        throw new RangeError(`currency ${def.code}: usd_rate must be a positive decimal, got ${def.usd_rate}`);
      }
      if (!/^[A-Z]{3,5}$/.test(def.code)) {
        throw new RangeError(`currency code must be 3 to 5 capital letters, got ${def.code}`);
      }
      if (!Number.isInteger(def.decimals) || def.decimals < 0 || def.decimals > 18) {
        throw new RangeError(`currency ${def.code}: decimals must be an integer from 0 to 18`);
      }
      map.set(def.code, {
        code: def.code,
        name: def.name,
        decimals: def.decimals,
        usdRate: rate,
        isCrypto: def.is_crypto,
      });
    }
    if (!map.has('USD')) {
      throw new RangeError('the currency table must contain USD');
    }
    this.byCode = map;
  }

  get(code: string): Currency | undefined {
    return this.byCode.get(code);
  }

  /**
   * The number of minor-unit digits of a currency the table holds. Throws a plain error (a 500,
   * logged) on an unknown code rather than answering a default: every code that reaches it has
   * already passed the input checks against this table (orders, preferences, plans, methods), so
   * an unknown one is a stored row in a currency the table has lost (a rates file that once
   * added it and no longer does) or a bug, neither of which the caller can fix; and guessing 2
   * would show or convert a 0- or 8-decimal amount a hundred or a million times off.
   */
  decimalsOf(code: string): number {
    const currency = this.byCode.get(code);
    if (!currency) {
      throw new RangeError(`currency ${code} is not in the currency table`);
    }
    return currency.decimals;
  }

  all(): Currency[] {
    return [...this.byCode.values()];
  }
}
