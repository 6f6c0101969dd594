import { readFileSync } from 'node:fs';
import type { Config } from '../config/config.ts';
import { ConfigError } from '../config/config.ts';
import { CurrencyTable, DEFAULT_CURRENCIES } from '../domain/currencies/currency.ts';
import { applyRatesFile } from '../domain/currencies/rates-file.ts';

/** The currency table: the built-in one, or the operator's RATES_FILE applied to it; a bad file stops the start. */
export function loadCurrencies(config: Pick<Config, 'ratesFile'>): CurrencyTable {
  if (!config.ratesFile) {
    return new CurrencyTable(DEFAULT_CURRENCIES);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(config.ratesFile, 'utf8'));
  } catch (error) {
    throw new ConfigError(`RATES_FILE ${config.ratesFile} could not be read as JSON: ${(error as Error).message}`);
  }
  try {
    return new CurrencyTable(applyRatesFile(parsed));
  } catch (error) {
    throw new ConfigError(`RATES_FILE ${config.ratesFile}: ${(error as Error).message}`);
  }
}
