import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference, paymentBody } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { BRL_PIX_ID, createPreferenceRequest, get, JSON_UTF8, USD_CARD_ID, wireTime } from '../helpers.ts';

const NOW = '2026-01-15T12:00:00Z';
const NOW_MS = Date.parse(NOW);

describeBackends('POST /v1/checkout_preferences', (build) => {
  test('creates PAYMENT preferences from what real clients send', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('creates a PAYMENT preference and answers 201 with the full record', async () => {
      const { app, merchant, clock } = await fresh();
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: merchant.authHeaders,
        payload: paymentBody({ external_id: 'order-42' }),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
      const body = res.json();
      assert.match(body.id, /^[A-Za-z0-9]{22}$/);
      const now = clock.now().getTime();
      assert.deepEqual(body, {
        id: body.id,
        type: 'PAYMENT',
        status: 'OPEN',
        amount: 16.9,
        currency: 'USD',
        title: 'Tea for two',
        origin: 'API',
        origin_id: null,
        external_id: 'order-42',
        user_id: merchant.id,
        payment_link_id: null,
        payer: { email: null, first_name: null, last_name: null, phone_number: null },
        payment_method_types: null,
        selected_payment_method_id: null,
        custom_urls: { status_changes_webhook: null, success_payment_redirect: null, error_payment_redirect: null },
        expiration_date: `${new Date(now - (now % 1000) + 15 * 60_000).toISOString().slice(0, 19)}Z`,
        created_at: `${new Date(now).toISOString().slice(0, 19)}Z`,
        updated_at: `${new Date(now).toISOString().slice(0, 19)}Z`,
        checkout_url: `http://127.0.0.1:3000/checkout/${body.id}`,
        payment_order_id: null,
      });
      const read = await app.inject({
        method: 'GET',
        url: `/v1/checkout_preferences/${body.id}`,
        headers: merchant.authHeaders,
      });
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), body);
    });

    await t.test('rounds an amount with many decimals half-up to the currency decimals', async () => {
      const { app, merchant } = await fresh();
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: merchant.authHeaders,
        payload: paymentBody({ amount: 6.896551724137931 }),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.json().amount, 6.9);
    });

    await t.test('rounds half-up from the decimal the client wrote, not from a float product', async (t) => {
      const { app, merchant } = await fresh();
      // Each of these goes wrong with Math.round(x * 100) / 100 (1.005 * 100 = 100.49999…).
      const cases: [number, string, number][] = [
        [1.005, 'USD', 1.01],
        [2.675, 'USD', 2.68],
        [0.125, 'USD', 0.13],
        [10.004999, 'USD', 10],
        [1500.5, 'CLP', 1501],
        [1500.4999, 'CLP', 1500],
        [2000, 'CLP', 2000],
        [12.3456789, 'USDT', 12.345679],
        [0.000123456789, 'BTC', 0.00012346],
        [19.999, 'EUR', 20],
      ];
      for (const [sent, currency, stored] of cases) {
        await t.test(`stores ${sent} ${currency} as ${stored}`, async () => {
          const res = await createPreferenceRequest(app, merchant, paymentBody({ amount: sent, currency }));
          assert.equal(res.statusCode, 201, res.body);
          assert.equal(res.json().amount, stored, res.body);
          assert.equal(res.json().currency, currency, res.body);
        });
      }
    });

    await t.test(
      'accepts both ends of the 0.10–3000.00 USD bound, in USD and converted from other currencies',
      async (t) => {
        const { app, merchant } = await fresh();
        const cases: [number, string, number][] = [
          [0.1, 'USD', 0.1],
          [3000, 'USD', 3000],
          [0.0999, 'USD', 0.1],
          [3000.004, 'USD', 3000],
          [94, 'CLP', 94], // 94 / 940 = 0.10 USD exactly
          [2_820_000, 'CLP', 2_820_000], // 3000 USD exactly
          [118, 'ARS', 118], // 0.10 USD at 1180 ARS per USD
          [3_540_000, 'ARS', 3_540_000], // 3000 USD
        ];
        for (const [sent, currency, stored] of cases) {
          await t.test(`accepts ${sent} ${currency}`, async () => {
            const res = await createPreferenceRequest(app, merchant, paymentBody({ amount: sent, currency }));
            assert.equal(res.statusCode, 201, res.body);
            assert.equal(res.json().amount, stored, res.body);
          });
        }
      },
    );

    await t.test('accepts the amounts real clients send in Latin American currencies', async (t) => {
      const { app, merchant } = await fresh();
      const cases: [number, string][] = [
        [25_000, 'CLP'],
        [4_990, 'CLP'],
        [85_807.04, 'ARS'],
        [150_000, 'COP'],
        [249.9, 'BRL'],
        [999, 'MXN'],
        [59.9, 'PEN'],
        [1_200, 'UYU'],
        [20, 'EUR'],
        [10, 'USD'],
      ];
      for (const [amount, currency] of cases) {
        await t.test(`accepts ${amount} ${currency}`, async () => {
          const res = await createPreferenceRequest(app, merchant, paymentBody({ amount, currency }));
          assert.equal(res.statusCode, 201, res.body);
          assert.equal(res.json().amount, amount, res.body);
          assert.equal(res.json().currency, currency, res.body);
        });
      }
    });

    await t.test('keeps a non-ASCII title as sent', async () => {
      const { app, merchant } = await fresh();
      const title = 'Café con leche ☕ — ñandú, São Paulo, 日本語 🚀';
      const created = await createPreference(app, merchant, { title });
      assert.equal(created.title, title);
      assert.equal((await get(app, merchant, `/v1/checkout_preferences/${created.id}`)).json().title, title);
    });

    await t.test(
      'accepts the payer with the name and phone spelling and answers with first_name and phone_number',
      async () => {
        const { app, merchant } = await fresh();
        const created = await createPreference(app, merchant, {
          payer: { email: 'ana@example.com', name: 'Ana', last_name: 'Pérez', phone: '+56 9 1234 5678' },
        });
        assert.deepEqual(created.payer, {
          email: 'ana@example.com',
          first_name: 'Ana',
          last_name: 'Pérez',
          phone_number: '+56912345678',
        });
      },
    );

    await t.test('accepts the payer with the first_name and phone_number spelling', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant, {
        payer: { email: 'joao@example.com.br', first_name: 'João', last_name: 'Silva', phone_number: '5511987654321' },
      });
      assert.deepEqual(created.payer, {
        email: 'joao@example.com.br',
        first_name: 'João',
        last_name: 'Silva',
        phone_number: '+5511987654321',
      });
    });

    await t.test('accepts both spellings at once when they agree', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant, {
        payer: { name: 'Ana', first_name: 'Ana', phone: '+5491155556666', phone_number: '5491155556666' },
      });
      assert.deepEqual(created.payer, {
        email: null,
        first_name: 'Ana',
        last_name: null,
        phone_number: '+5491155556666',
      });
    });

    await t.test('treats empty payer strings as not given', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant, {
        payer: { email: '', name: '', first_name: 'Ana', last_name: '', phone: '', phone_number: '' },
      });
      assert.deepEqual(created.payer, { email: null, first_name: 'Ana', last_name: null, phone_number: null });
      const conflictless = await createPreference(app, merchant, {
        payer: { name: 'Ana', first_name: '', phone: '', phone_number: '+56912345678' },
      });
      assert.deepEqual(conflictless.payer, {
        email: null,
        first_name: 'Ana',
        last_name: null,
        phone_number: '+56912345678',
      });
    });

    await t.test('accepts a partial payer: only an e-mail, only a name, or none at all', async () => {
      const { app, merchant } = await fresh();
      const onlyEmail = await createPreference(app, merchant, { payer: { email: 'payer@example.org' } });
      assert.deepEqual(onlyEmail.payer, {
        email: 'payer@example.org',
        first_name: null,
        last_name: null,
        phone_number: null,
      });
      const onlyName = await createPreference(app, merchant, { payer: { name: 'Lucía' } });
      assert.deepEqual(onlyName.payer, { email: null, first_name: 'Lucía', last_name: null, phone_number: null });
      const nullPayer = await createPreference(app, merchant, { payer: null });
      assert.deepEqual(nullPayer.payer, { email: null, first_name: null, last_name: null, phone_number: null });
      const emptyPayer = await createPreference(app, merchant, { payer: {} });
      assert.deepEqual(emptyPayer.payer, { email: null, first_name: null, last_name: null, phone_number: null });
    });

    await t.test('normalises phone numbers with or without + to + and digits', async (t) => {
      const { app, merchant } = await fresh();
      const cases: [string, string][] = [
        ['+56 9 1234 5678', '+56912345678'],
        ['56912345678', '+56912345678'],
        ['+55 (11) 98765-4321', '+5511987654321'],
        ['+1.415.555.2671', '+14155552671'],
        ['12345678', '+12345678'],
        ['123456789012345', '+123456789012345'],
      ];
      for (const [sent, stored] of cases) {
        await t.test(`stores ${sent} as ${stored}`, async () => {
          const created = await createPreference(app, merchant, { payer: { phone: sent } });
          assert.equal((created.payer as Record<string, unknown>).phone_number, stored);
        });
      }
    });

    await t.test('defaults the expiration to 15 minutes after creation', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set(NOW);
      const created = await createPreference(app, merchant);
      assert.equal(created.created_at, NOW);
      assert.equal(created.expiration_date, '2026-01-15T12:15:00Z');
    });

    await t.test('accepts an expiration date up to exactly 7 days ahead', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set(NOW);
      const oneSecondLess = await createPreference(app, merchant, { expiration_date: '2026-01-22T11:59:59Z' });
      assert.equal(oneSecondLess.expiration_date, '2026-01-22T11:59:59Z');
      const exactly = await createPreference(app, merchant, { expiration_date: '2026-01-22T12:00:00Z' });
      assert.equal(exactly.expiration_date, '2026-01-22T12:00:00Z');
      const soon = await createPreference(app, merchant, { expiration_date: '2026-01-15T12:00:01Z' });
      assert.equal(soon.expiration_date, '2026-01-15T12:00:01Z');
    });

    await t.test('accepts expiration dates with an offset and answers them in UTC', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set(NOW);
      const cases: [string, string][] = [
        ['2026-01-15T10:30:00-03:00', '2026-01-15T13:30:00Z'],
        ['2026-01-15T18:00:00+05:30', '2026-01-15T12:30:00Z'],
        ['2026-01-16T00:00:00+00:00', '2026-01-16T00:00:00Z'],
        ['2026-01-15t12:45:00z', '2026-01-15T12:45:00Z'],
      ];
      for (const [sent, stored] of cases) {
        const created = await createPreference(app, merchant, { expiration_date: sent });
        assert.equal(created.expiration_date, stored, sent);
      }
    });

    await t.test('accepts fractional seconds in the expiration date and answers with whole seconds', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set(NOW);
      const created = await createPreference(app, merchant, { expiration_date: '2026-01-15T12:30:00.987654Z' });
      assert.equal(created.expiration_date, '2026-01-15T12:30:00Z');
    });

    await t.test('accepts 29 February in a leap year', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2028-02-27T08:00:00Z');
      const created = await createPreference(app, merchant, { expiration_date: '2028-02-29T08:00:00Z' });
      assert.equal(created.expiration_date, '2028-02-29T08:00:00Z');
    });

    await t.test('stores any subset of custom_urls verbatim, query strings and secret tokens included', async () => {
      const { app, merchant } = await fresh();
      const subsets: Record<string, string>[] = [
        { status_changes_webhook: 'https://shop.example/webhooks/cobro?token=abc' },
        { success_payment_redirect: 'https://shop.example/thanks?order=42&token=s3cr3t' },
        { error_payment_redirect: 'https://shop.example/oops?order=42' },
        {
          success_payment_redirect: 'https://shop.example/ok?a=1',
          error_payment_redirect: 'http://shop.example/ko?a=1',
        },
        {
          status_changes_webhook: 'https://api.shop.example/hook?token=abc&v=2',
          success_payment_redirect: 'https://shop.example/ok?order=7',
          error_payment_redirect: 'https://shop.example/ko?order=7',
        },
      ];
      for (const urls of subsets) {
        const created = await createPreference(app, merchant, { custom_urls: urls });
        const expected = {
          status_changes_webhook: urls.status_changes_webhook ?? null,
          success_payment_redirect: urls.success_payment_redirect ?? null,
          error_payment_redirect: urls.error_payment_redirect ?? null,
        };
        assert.deepEqual(created.custom_urls, expected);
        assert.deepEqual(
          (await get(app, merchant, `/v1/checkout_preferences/${created.id}`)).json().custom_urls,
          expected,
        );
      }
    });

    await t.test('treats empty custom_urls members and a null custom_urls as not given', async () => {
      const { app, merchant } = await fresh();
      const none = { status_changes_webhook: null, success_payment_redirect: null, error_payment_redirect: null };
      const empty = await createPreference(app, merchant, {
        custom_urls: { status_changes_webhook: '', success_payment_redirect: '', error_payment_redirect: null },
      });
      assert.deepEqual(empty.custom_urls, none);
      const absent = await createPreference(app, merchant, { custom_urls: null });
      assert.deepEqual(absent.custom_urls, none);
    });

    await t.test('returns valid http and https redirect and webhook URLs byte for byte', async (t) => {
      const { app, merchant } = await fresh();
      const urls = [
        'https://shop.example/thanks?order=42&token=abc',
        'http://shop.example:8080/callback?x=1&y=%20z',
        'https://shop.example/path/with%20space?q=a+b&empty=&flag#section',
        'https://SHOP.example/Path/Case?Keep=Case',
        'https://shop.example',
        'https://shop.example/?next=https%3A%2F%2Fother.example%2F',
        'https://sub.domain.shop.example:443/a/b/c/?list=1,2,3&semi=a;b',
        'https://shop.example/unicode-%C3%BC?q=%E2%9C%93',
        `https://shop.example/long?data=${'x'.repeat(1900)}`,
      ];
      for (const field of ['success_payment_redirect', 'error_payment_redirect', 'status_changes_webhook']) {
        for (const url of urls) {
          await t.test(`accepts ${field} ${url.slice(0, 60)}`, async () => {
            const created = await createPreference(app, merchant, { custom_urls: { [field]: url } });
            assert.equal((created.custom_urls as Record<string, unknown>)[field], url);
            const read = await get(app, merchant, `/v1/checkout_preferences/${created.id}`);
            assert.ok(read.body.includes(JSON.stringify(url)), read.body);
          });
        }
      }
    });

    await t.test('ignores unknown members that old clients send', async () => {
      const { app, merchant } = await fresh();
      const res = await createPreferenceRequest(
        app,
        merchant,
        paymentBody({
          country_id: 'CHL',
          metadata: { order: 42, nested: { deep: true } },
          items: [{ title: 'Tea', quantity: 2, unit_price: 8.45 }],
          success_url: 'javascript:alert(1)',
          callback_url: 'not even a url',
          notification_url: 'https://shop.example/hook',
          payer_id: 123,
        }),
      );
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.deepEqual(Object.keys(body).sort(), [
        'amount',
        'checkout_url',
        'created_at',
        'currency',
        'custom_urls',
        'expiration_date',
        'external_id',
        'id',
        'origin',
        'origin_id',
        'payer',
        'payment_link_id',
        'payment_method_types',
        'payment_order_id',
        'selected_payment_method_id',
        'status',
        'title',
        'type',
        'updated_at',
        'user_id',
      ]);
      assert.deepEqual(body.custom_urls, {
        status_changes_webhook: null,
        success_payment_redirect: null,
        error_payment_redirect: null,
      });
    });

    await t.test('returns external_id verbatim: UUIDs, long values, separators, spaces and non-ASCII', async (t) => {
      const { app, merchant } = await fresh();
      const values = [
        '3f6c2a1e-9b7d-4c1a-8e2f-5d4b3a2c1b0e',
        `order_${'9'.repeat(80)}|user_12345|plan_gold|2026-01-15T12:00:00Z`,
        '  padded with spaces  ',
        'pedido nº 42 — cliente «Ñandú»',
        '{"json":"inside","n":1}',
        'x'.repeat(255),
        'é'.repeat(255),
        '😀'.repeat(255),
      ];
      for (const externalId of values) {
        await t.test(`returns ${externalId.slice(0, 40)}… (${externalId.length} UTF-16 units)`, async () => {
          const res = await createPreferenceRequest(app, merchant, paymentBody({ external_id: externalId }));
          assert.equal(res.statusCode, 201, res.body);
          assert.equal(res.json().external_id, externalId);
          const read = await get(app, merchant, `/v1/checkout_preferences/${res.json().id}`);
          assert.equal(read.json().external_id, externalId);
        });
      }
    });

    await t.test('stores payment_method_types and a compatible selected_payment_method_id', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant, {
        payment_method_types: ['CARD', 'CRYPTO_ONCHAIN'],
        selected_payment_method_id: USD_CARD_ID,
      });
      assert.deepEqual(created.payment_method_types, ['CARD', 'CRYPTO_ONCHAIN']);
      assert.equal(created.selected_payment_method_id, USD_CARD_ID);
      const pix = await createPreference(app, merchant, {
        amount: 49.9,
        currency: 'BRL',
        payment_method_types: ['PIX'],
        selected_payment_method_id: BRL_PIX_ID,
      });
      assert.deepEqual(pix.payment_method_types, ['PIX']);
      assert.equal(pix.selected_payment_method_id, BRL_PIX_ID);
    });

    await t.test('accepts a crypto method for a fiat preference, converted at the rate table', async () => {
      const { app, merchant } = await fresh();
      // USDT on Polygon takes 0.10–3000 USDT; 5000 CLP is about 5.32 USDT.
      const created = await createPreference(app, merchant, {
        amount: 5000,
        currency: 'CLP',
        selected_payment_method_id: 'lkhovRnvYRd8bwKVVrsF0L',
      });
      assert.equal(created.selected_payment_method_id, 'lkhovRnvYRd8bwKVVrsF0L');
    });

    await t.test('accepts requests from any User-Agent, or none', async () => {
      const { app, merchant } = await fresh();
      for (const userAgent of [
        '',
        'curl/8.5.0',
        'GuzzleHttp/7',
        'python-httpx/0.27.0',
        'Deno/1.44',
        'x'.repeat(2000),
      ]) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: { ...merchant.authHeaders, 'user-agent': userAgent },
          payload: paymentBody(),
        });
        assert.equal(res.statusCode, 201, `${userAgent.slice(0, 20)}: ${res.body}`);
      }
    });

    await t.test('gives every preference a distinct unguessable 22-character id', async () => {
      const { app, merchant } = await fresh();
      const ids = new Set<string>();
      for (let i = 0; i < 25; i++) {
        const created = await createPreference(app, merchant);
        assert.match(created.id, /^[A-Za-z0-9]{22}$/);
        assert.equal(created.checkout_url, `http://127.0.0.1:3000/checkout/${created.id}`);
        ids.add(created.id);
      }
      assert.equal(ids.size, 25);
    });
  });

  test('accepts a JSON body whose Content-Type carries a charset parameter', async (t) => {
    const { app, merchant } = await build(t);
    for (const contentType of [
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'Application/JSON',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'content-type': contentType },
        payload: JSON.stringify(paymentBody()),
      });
      assert.equal(res.statusCode, 201, `${contentType}: ${res.body}`);
    }
  });
});

describeBackends('POST /v1/checkout_preferences with type SUBSCRIPTION', (build) => {
  test('creates SUBSCRIPTION preferences from a payment link', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test(
      'takes amount, currency and title from the payment link and ignores those the client sends',
      async () => {
        const { app, merchant, clock } = await fresh();
        clock.set(NOW);
        const link = await createPaymentLink(app, merchant, { title: 'Plan Oro ✨', amount: 9.99, currency: 'USD' });
        const res = await createPreferenceRequest(app, merchant, {
          type: 'SUBSCRIPTION',
          origin: 'API',
          payment_link_id: link.id,
          amount: 1,
          currency: 'EUR',
          title: 'Client title',
          external_id: 'sub-user-77',
          payer: { email: 'sub@example.com', first_name: 'Sol' },
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.headers['content-type'], JSON_UTF8);
        const body = res.json();
        assert.deepEqual(body, {
          id: body.id,
          type: 'SUBSCRIPTION',
          status: 'OPEN',
          amount: 9.99,
          currency: 'USD',
          title: 'Plan Oro ✨',
          origin: 'API',
          origin_id: null,
          external_id: 'sub-user-77',
          user_id: merchant.id,
          payment_link_id: link.id,
          payer: { email: 'sub@example.com', first_name: 'Sol', last_name: null, phone_number: null },
          payment_method_types: null,
          selected_payment_method_id: null,
          custom_urls: { status_changes_webhook: null, success_payment_redirect: null, error_payment_redirect: null },
          expiration_date: wireTime(NOW_MS + 15 * 60_000),
          created_at: NOW,
          updated_at: NOW,
          checkout_url: `http://127.0.0.1:3000/checkout/${body.id}`,
          payment_order_id: null,
        });
        assert.deepEqual((await get(app, merchant, `/v1/checkout_preferences/${body.id}`)).json(), body);
      },
    );

    await t.test('takes a zero-decimal currency from the payment link', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant, { amount: 9990, currency: 'CLP', title: 'Plan mensual' });
      const created = await createPreference(app, merchant, {
        type: 'SUBSCRIPTION',
        payment_link_id: link.id,
        amount: undefined,
        currency: undefined,
        title: undefined,
      });
      assert.equal(created.amount, 9990);
      assert.equal(created.currency, 'CLP');
      assert.equal(created.title, 'Plan mensual');
    });

    await t.test('accepts payment_method_types and a recurrent selected method for a subscription', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const created = await createPreference(app, merchant, {
        type: 'SUBSCRIPTION',
        payment_link_id: link.id,
        payment_method_types: ['CARD'],
        selected_payment_method_id: USD_CARD_ID,
        custom_urls: { success_payment_redirect: 'https://shop.example/welcome?plan=gold' },
      });
      assert.deepEqual(created.payment_method_types, ['CARD']);
      assert.equal(created.selected_payment_method_id, USD_CARD_ID);
      assert.equal(
        (created.custom_urls as Record<string, unknown>).success_payment_redirect,
        'https://shop.example/welcome?plan=gold',
      );
    });
  });
});
