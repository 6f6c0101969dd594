import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeBackends } from '../../support/test-app.ts';
import { get, JSON_UTF8 } from '../helpers.ts';

type Currency = { code: string; name: string; decimals: number; usd_rate: number; is_crypto: boolean };

const EXPECTED: [string, number, boolean][] = [
  ['USD', 2, false],
  ['EUR', 2, false],
  ['ARS', 2, false],
  ['BRL', 2, false],
  ['CLP', 0, false],
  ['COP', 2, false],
  ['MXN', 2, false],
  ['PEN', 2, false],
  ['UYU', 2, false],
  ['USDT', 6, true],
  ['USDC', 6, true],
  ['BTC', 8, true],
  ['ETH', 18, true],
];

describeBackends('GET /v1/currencies', (build) => {
  test('lists the supported currencies', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers {"currencies": [...]} with the default table, decimals and crypto flags', async () => {
      const { app, merchant } = await fresh();
      const res = await get(app, merchant, '/v1/currencies');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], JSON_UTF8);
      const body = res.json() as { currencies: Currency[] };
      assert.deepEqual(Object.keys(body), ['currencies']);
      for (const [code, decimals, isCrypto] of EXPECTED) {
        const currency = body.currencies.find((c) => c.code === code);
        assert.ok(currency, `${code} missing: ${res.body}`);
        assert.deepEqual(Object.keys(currency).sort(), ['code', 'decimals', 'is_crypto', 'name', 'usd_rate']);
        assert.equal(currency.decimals, decimals, code);
        assert.equal(currency.is_crypto, isCrypto, code);
        assert.equal(typeof currency.name, 'string');
        assert.ok(currency.name.length > 0, code);
        assert.equal(typeof currency.usd_rate, 'number');
        assert.ok(currency.usd_rate > 0, code);
      }
      assert.equal(body.currencies.find((c) => c.code === 'USD')?.usd_rate, 1);
      assert.equal(new Set(body.currencies.map((c) => c.code)).size, body.currencies.length, 'duplicate codes');
      for (const c of body.currencies) {
        assert.match(c.code, /^[A-Z]{3,5}$/);
      }
    });

    await t.test('lists every currency a preference can be created in', async () => {
      const { app, merchant } = await fresh();
      const { currencies } = (await get(app, merchant, '/v1/currencies')).json() as { currencies: Currency[] };
      for (const c of currencies) {
        // 10 USD in each currency, at its own rate, rounded to its decimals.
        const amount = Number((10 * c.usd_rate).toFixed(c.decimals));
        const res = await app.inject({
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: merchant.authHeaders,
          payload: { type: 'PAYMENT', origin: 'API', title: 'Tea', currency: c.code, amount },
        });
        assert.equal(res.statusCode, 201, `${c.code} ${amount}: ${res.body}`);
        assert.equal(res.json().currency, c.code);
      }
    });

    await t.test('works when the GET carries Content-Type: application/json and no body', async () => {
      const { app, merchant } = await fresh();
      const res = await app.inject({
        method: 'GET',
        url: '/v1/currencies',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 200, res.body);
    });
  });
});
