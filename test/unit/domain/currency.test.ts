import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CurrencyTable, DEFAULT_CURRENCIES } from '../../../src/domain/currencies/currency.ts';

const currencies = new CurrencyTable(DEFAULT_CURRENCIES);

test('decimalsOf answers the decimals of a currency the table holds', () => {
  assert.equal(currencies.decimalsOf('USD'), 2);
  assert.equal(currencies.decimalsOf('CLP'), 0);
  assert.equal(currencies.decimalsOf('BTC'), 8);
  assert.equal(currencies.decimalsOf('ETH'), 18);
});

test('decimalsOf throws on a code the table does not hold, never guessing 2', () => {
  for (const code of ['XYZ', 'usd', '']) {
    assert.throws(() => currencies.decimalsOf(code), {
      name: 'RangeError',
      message: `currency ${code} is not in the currency table`,
    });
  }
});
