import type { CurrencyDefinition } from './currency.ts';
import { DEFAULT_CURRENCIES } from './currency.ts';

/**
 * Applies an operator's rates file to the default table. Two shapes are accepted:
 * `{"BRL": "5.12", "ARS": 1210}` (new rates for known codes), or
 * `{"currencies": [{"code","name","decimals","usd_rate","is_crypto"}, …]}` (add or replace definitions).
 */
export function applyRatesFile(content: unknown): CurrencyDefinition[] {
  const table = new Map(DEFAULT_CURRENCIES.map((c) => [c.code, { ...c }]));
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    throw new RangeError('the rates file must hold a JSON object');
  }
  const record = content as Record<string, unknown>;
  if (Array.isArray(record.currencies)) {
    for (const entry of record.currencies as unknown[]) {
      const e = entry as Partial<Record<keyof CurrencyDefinition, unknown>>;
      if (
        typeof e.code !== 'string' ||
        typeof e.decimals !== 'number' ||
        (typeof e.usd_rate !== 'string' && typeof e.usd_rate !== 'number')
      ) {
        throw new RangeError('each entry of "currencies" needs code, decimals and usd_rate');
      }
      table.set(e.code, {
        code: e.code,
        name: typeof e.name === 'string' ? e.name : e.code,
        decimals: e.decimals,
        usd_rate: String(e.usd_rate),
        is_crypto: e.is_crypto === true,
      });
    }
    return [...table.values()];
  }
  for (const [code, rate] of Object.entries(record)) {
    const existing = table.get(code);
    if (!existing) {
      throw new RangeError(
        `the rates file names ${code}, which is not a known currency (use the "currencies" form to add one)`,
      );
    }
    if (typeof rate !== 'string' && typeof rate !== 'number') {
      throw new RangeError(`the rate of ${code} must be a number or a decimal string`);
    }
    existing.usd_rate = String(rate);
  }
  return [...table.values()];
}
