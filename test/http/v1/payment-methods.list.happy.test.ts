import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';
import { BRL_PIX_ID, get, JSON_UTF8, USD_CARD_ID } from '../helpers.ts';

type Method = {
  id: string;
  status: string;
  type: string;
  country_id: string;
  currency: string;
  max_amount: number;
  min_amount: number;
  network: { id: string; name: string } | null;
  cash_provider: { id: string; name: string } | null;
  crypto_provider: { id: string; name: string } | null;
  allow_recurrent_payment: boolean;
};

const TYPES = ['BANK_TRANSFER', 'CARD', 'CASH', 'CRYPTO_ONCHAIN', 'PIX'];
const FIATS = ['USD', 'EUR', 'ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'UYU'];

async function methods(app: FastifyInstance, merchant: TestMerchant, query = ''): Promise<Method[]> {
  const res = await get(app, merchant, `/v1/payment_methods${query}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], JSON_UTF8);
  const body = res.json() as { payment_methods: Method[] };
  assert.deepEqual(Object.keys(body), ['payment_methods'], res.body);
  assert.ok(Array.isArray(body.payment_methods), res.body);
  return body.payment_methods;
}

/** Catalogue ranges are checked as exact decimals: amounts in minor units of two decimals. */
const cents = (n: number) => Math.round(n * 100);

describeBackends('GET /v1/payment_methods', (build) => {
  test('lists and filters the payment method catalogue', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers an object whose payment_methods holds records of the seed shape', async () => {
      const { app, merchant } = await fresh();
      const all = await methods(app, merchant);
      assert.ok(all.length >= 10, `only ${all.length} methods`);
      const ids = new Set<string>();
      for (const m of all) {
        assert.deepEqual(Object.keys(m).sort(), [
          'allow_recurrent_payment',
          'cash_provider',
          'country_id',
          'crypto_provider',
          'currency',
          'id',
          'max_amount',
          'min_amount',
          'network',
          'status',
          'type',
        ]);
        assert.match(m.id, /^[A-Za-z0-9]{22}$/);
        assert.equal(ids.has(m.id), false, `duplicate id ${m.id}`);
        ids.add(m.id);
        assert.equal(m.status, 'ENABLED');
        assert.ok(TYPES.includes(m.type), m.type);
        assert.match(m.country_id, /^([A-Z]{3}|ALL)$/);
        assert.equal(typeof m.min_amount, 'number');
        assert.equal(typeof m.max_amount, 'number');
        assert.ok(m.min_amount > 0 && m.min_amount <= m.max_amount, JSON.stringify(m));
        assert.equal(typeof m.allow_recurrent_payment, 'boolean');
        for (const ref of [m.network, m.cash_provider, m.crypto_provider]) {
          if (ref !== null) {
            assert.deepEqual(Object.keys(ref).sort(), ['id', 'name']);
          }
        }
        assert.equal(m.network !== null, m.type === 'CRYPTO_ONCHAIN', JSON.stringify(m));
        assert.equal(m.crypto_provider !== null, m.type === 'CRYPTO_ONCHAIN', JSON.stringify(m));
        assert.equal(m.cash_provider !== null, m.type === 'CASH', JSON.stringify(m));
      }
    });

    await t.test('offers a CARD in USD, the record existing clients pick first', async () => {
      const { app, merchant } = await fresh();
      const all = await methods(app, merchant);
      const card = all.find((m) => m.type === 'CARD' && m.currency === 'USD');
      assert.deepEqual(card, {
        id: USD_CARD_ID,
        status: 'ENABLED',
        type: 'CARD',
        country_id: 'ALL',
        currency: 'USD',
        max_amount: 3000,
        min_amount: 0.1,
        network: null,
        cash_provider: null,
        crypto_provider: null,
        allow_recurrent_payment: true,
      });
    });

    await t.test(
      'covers all five types, a CARD in every default fiat currency, PIX in BRL and USDT, USDC and BTC on chain',
      async () => {
        const { app, merchant } = await fresh();
        const all = await methods(app, merchant);
        assert.deepEqual([...new Set(all.map((m) => m.type))].sort(), TYPES);
        for (const currency of FIATS) {
          assert.ok(
            all.some((m) => m.type === 'CARD' && m.currency === currency),
            `no CARD in ${currency}`,
          );
        }
        assert.ok(all.some((m) => m.type === 'PIX' && m.currency === 'BRL'));
        for (const currency of ['ARS', 'BRL', 'CLP', 'COP', 'MXN', 'PEN', 'UYU']) {
          assert.ok(
            all.some((m) => (m.type === 'BANK_TRANSFER' || m.type === 'CASH') && m.currency === currency),
            `no bank transfer or cash in ${currency}`,
          );
        }
        for (const currency of ['USDT', 'USDC', 'BTC']) {
          assert.ok(
            all.some((m) => m.type === 'CRYPTO_ONCHAIN' && m.currency === currency),
            `no on-chain method for ${currency}`,
          );
        }
        const evm = ['ethereum', 'polygon', 'base', 'arbitrum', 'optimism', 'bsc'];
        for (const currency of ['USDT', 'USDC']) {
          assert.ok(
            all.some((m) => m.currency === currency && m.network !== null && evm.includes(m.network.id)),
            `no EVM network for ${currency}`,
          );
        }
      },
    );

    await t.test('covers every USD amount from 0.10 to 3000.00 with its USD methods', async () => {
      const { app, merchant } = await fresh();
      const usd = (await methods(app, merchant, '?currency=USD')).map((m) => [
        cents(m.min_amount),
        cents(m.max_amount),
      ]);
      usd.sort((a, b) => (a[0] ?? 0) - (b[0] ?? 0));
      let covered = 9; // everything below 0.10 needs no method
      for (const [min, max] of usd) {
        if ((min ?? 0) <= covered + 1) {
          covered = Math.max(covered, max ?? 0);
        }
      }
      assert.ok(covered >= 300_000, `USD methods cover only up to ${covered / 100}: ${JSON.stringify(usd)}`);
      for (const amount of ['0.10', '0.99', '1.00', '1500.55', '2999.99', '3000.00']) {
        assert.ok(
          (await methods(app, merchant, `?currency=USD&amount=${amount}`)).length > 0,
          `no method for ${amount}`,
        );
      }
    });

    await t.test('filters by type', async () => {
      const { app, merchant } = await fresh();
      const pix = await methods(app, merchant, '?type=PIX');
      assert.deepEqual(
        pix.map((m) => m.id),
        [BRL_PIX_ID],
      );
      for (const type of TYPES) {
        const found = await methods(app, merchant, `?type=${type}`);
        assert.ok(found.length > 0, type);
        assert.ok(
          found.every((m) => m.type === type),
          type,
        );
      }
    });

    await t.test('filters by currency, in any letter case', async () => {
      const { app, merchant } = await fresh();
      const all = await methods(app, merchant);
      for (const currency of ['CLP', 'usdt', 'Brl']) {
        const found = await methods(app, merchant, `?currency=${currency}`);
        const upper = currency.toUpperCase();
        assert.deepEqual(
          found.map((m) => m.id),
          all.filter((m) => m.currency === upper).map((m) => m.id),
        );
        assert.ok(found.length > 0, currency);
      }
      assert.deepEqual(await methods(app, merchant, '?currency=ETH'), []);
    });

    await t.test('filters by country_id, ALL included as a value', async () => {
      const { app, merchant } = await fresh();
      const all = await methods(app, merchant);
      for (const country of ['CHL', 'bra', 'ALL']) {
        const found = await methods(app, merchant, `?country_id=${country}`);
        assert.ok(found.length > 0, country);
        assert.deepEqual(
          found.map((m) => m.id),
          all.filter((m) => m.country_id === country.toUpperCase()).map((m) => m.id),
        );
      }
      assert.deepEqual(await methods(app, merchant, '?country_id=DEU'), []);
    });

    await t.test('filters by amount: the methods whose own-currency range holds it, ends included', async () => {
      const { app, merchant } = await fresh();
      const ids = async (query: string) => (await methods(app, merchant, query)).map((m) => m.id).sort();
      // CLP: card and bank transfer 100–2,800,000, cash 1,000–1,000,000.
      assert.deepEqual((await methods(app, merchant, '?currency=CLP&amount=5000')).length, 3);
      assert.deepEqual((await methods(app, merchant, '?currency=CLP&amount=500')).length, 2);
      assert.deepEqual((await methods(app, merchant, '?currency=CLP&amount=99')).length, 0);
      assert.deepEqual((await methods(app, merchant, '?currency=CLP&amount=2800000')).length, 2);
      // USD: the card alone takes 0.10–0.99, card and bank transfer from 1.00.
      assert.deepEqual(await ids('?currency=USD&amount=0.10'), [USD_CARD_ID]);
      assert.deepEqual(await ids('?currency=USD&amount=0.5'), [USD_CARD_ID]);
      assert.equal((await ids('?currency=USD&amount=1')).length, 2);
      assert.deepEqual(await ids('?currency=USD&amount=0.09'), []);
      assert.deepEqual(await ids('?currency=USD&amount=3000.01'), []);
      // Without a currency, each method compares in its own currency.
      const all = await methods(app, merchant);
      const at = await methods(app, merchant, '?amount=50');
      assert.deepEqual(
        at.map((m) => m.id),
        all.filter((m) => m.min_amount <= 50 && 50 <= m.max_amount).map((m) => m.id),
      );
    });

    await t.test('filters by allow_recurrent_payment', async () => {
      const { app, merchant } = await fresh();
      const all = await methods(app, merchant);
      const recurrent = await methods(app, merchant, '?allow_recurrent_payment=true');
      const oneOff = await methods(app, merchant, '?allow_recurrent_payment=false');
      assert.deepEqual(
        recurrent.map((m) => m.id),
        all.filter((m) => m.allow_recurrent_payment).map((m) => m.id),
      );
      assert.deepEqual(
        oneOff.map((m) => m.id),
        all.filter((m) => !m.allow_recurrent_payment).map((m) => m.id),
      );
      assert.ok(recurrent.some((m) => m.id === USD_CARD_ID));
    });

    await t.test('combines every filter', async () => {
      const { app, merchant } = await fresh();
      const found = await methods(
        app,
        merchant,
        '?type=CARD&currency=USD&country_id=ALL&amount=16.90&allow_recurrent_payment=true',
      );
      assert.deepEqual(
        found.map((m) => m.id),
        [USD_CARD_ID],
      );
      assert.deepEqual(await methods(app, merchant, '?type=PIX&currency=USD'), []);
    });

    await t.test('works when the GET carries Content-Type: application/json and no body', async () => {
      const { app, merchant } = await fresh();
      const res = await app.inject({
        method: 'GET',
        url: '/v1/payment_methods',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(Array.isArray(res.json().payment_methods));
    });
  });
});
