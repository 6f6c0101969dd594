import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { BTC_TEST_ZPUB, BTC_TESTNET_TEST_VPUB, EVM_TEST_XPUB } from '../../src/providers/crypto-onchain/derivation.ts';
import { createPaymentLink, createPreference, errorBody, paymentBody } from '../support/builders.ts';
import { signedInMember } from '../support/dashboard-client.ts';
import { startFakeEsplora } from '../support/fake-esplora.ts';
import { cookieFrom, postForm, tokenFrom } from '../support/page-forms.ts';
import { getOrder } from '../support/payments.ts';
import type { BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';
import { BANK_DETAILS, describeBackends } from '../support/test-app.ts';
import { BRL_PIX_ID, get, USD_BANK_TRANSFER_ID } from './helpers.ts';

// Live mode offers only what can settle for the merchant (INTERFACE.md §4): cards need a card
// processor connection (none exists yet), PIX a PIX key, bank transfers bank details, crypto a
// network the operator watches and the merchant's extended public key, and cash a voucher
// network (none is built in). The rest is listed DISABLED for live keys and never shown to a
// live payer. Test keys see and offer every method.

const BRL_CARD_ID = 'JoXsCfh6Z26TELZaLW4iNv';
const PIX = { key: 'ana@example.com', merchant_name: 'Ana Lima', city: 'Sao Paulo' };
const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };
const DAY_MS = 86_400_000;

type Method = { id: string; type: string; currency: string; status: string; network: { id: string } | null };

async function catalogue(app: FastifyInstance, merchant: TestMerchant, query = '') {
  const res = await get(app, merchant, `/v1/payment_methods${query}`);
  assert.equal(res.statusCode, 200, res.body);
  return { methods: res.json().payment_methods as Method[], etag: String(res.headers.etag) };
}

/** Each method's status, by type (crypto by coin and network): one status when all of a kind agree. */
async function statusByKind(app: FastifyInstance, merchant: TestMerchant): Promise<Record<string, string>> {
  const seen = new Map<string, Set<string>>();
  for (const m of (await catalogue(app, merchant)).methods) {
    const kind = m.network ? `${m.currency} on ${m.network.id}` : m.type;
    seen.set(kind, (seen.get(kind) ?? new Set()).add(m.status));
  }
  return Object.fromEntries([...seen].map(([kind, statuses]) => [kind, [...statuses].sort().join('/')]));
}

const ALL_DISABLED = {
  CARD: 'DISABLED',
  BANK_TRANSFER: 'DISABLED',
  CASH: 'DISABLED',
  PIX: 'DISABLED',
  'USDT on ethereum': 'DISABLED',
  'USDT on polygon': 'DISABLED',
  'USDC on ethereum': 'DISABLED',
  'USDC on base': 'DISABLED',
  'BTC on bitcoin': 'DISABLED',
};

describeBackends('live mode offers only what can settle', (build) => {
  /** The service with a Bitcoin source configured (loopback, in Esplora's shapes): live mode watches Bitcoin only. */
  async function watchingBitcoin(t: TestContext, options: BuildOptions = {}): Promise<TestApp> {
    const esplora = await startFakeEsplora();
    t.after(() => esplora.close());
    return build(t, { ...options, env: { BITCOIN_ESPLORA_URL: esplora.url, ...options.env } });
  }

  test('a live key sees every method DISABLED until the piece it needs is set up, each in turn; a test key sees all ENABLED', async (t) => {
    const ctx = await watchingBitcoin(t);
    const live = await ctx.createMerchant('live');
    const enable = (patch: Parameters<typeof ctx.cobro.services.merchants.updateSettings>[1]) =>
      ctx.cobro.services.merchants.updateSettings(live.id, patch);

    // Nothing set up: crypto is off too (Bitcoin is watched, but there is no extended public key).
    assert.deepEqual(await statusByKind(ctx.app, live), ALL_DISABLED);
    const before = await catalogue(ctx.app, live);

    await enable({ pix: PIX });
    assert.deepEqual(await statusByKind(ctx.app, live), { ...ALL_DISABLED, PIX: 'ENABLED' });
    const after = await catalogue(ctx.app, live);
    assert.notEqual(after.etag, before.etag, 'a settings change is a new answer, with a new ETag');

    await enable({ bank: BANK_DETAILS });
    assert.deepEqual(await statusByKind(ctx.app, live), { ...ALL_DISABLED, PIX: 'ENABLED', BANK_TRANSFER: 'ENABLED' });

    // A testnet key cannot be paid on the mainnet source; an EVM key on networks nobody watches changes nothing.
    await enable({ crypto: { btc_xpub: BTC_TESTNET_TEST_VPUB, btc_network: 'testnet', evm_xpub: EVM_TEST_XPUB } });
    assert.deepEqual(await statusByKind(ctx.app, live), { ...ALL_DISABLED, PIX: 'ENABLED', BANK_TRANSFER: 'ENABLED' });
    await enable({ crypto: { btc_xpub: BTC_TEST_ZPUB, btc_network: 'mainnet' } });
    assert.deepEqual(await statusByKind(ctx.app, live), {
      ...ALL_DISABLED,
      PIX: 'ENABLED',
      BANK_TRANSFER: 'ENABLED',
      'BTC on bitcoin': 'ENABLED',
    });

    // Removing a piece takes its method away again at once.
    await enable({ pix: null });
    assert.equal((await statusByKind(ctx.app, live)).PIX, 'DISABLED');

    const testKey = await ctx.createMerchant('test');
    assert.ok((await catalogue(ctx.app, testKey)).methods.every((m) => m.status === 'ENABLED'));
  });

  test('two merchants asked one after the other each see their own methods, answers and ETags', async (t) => {
    const ctx = await build(t);
    const withPix = await ctx.createMerchant('live', { pix: PIX });
    const without = await ctx.createMerchant('live');
    for (let round = 0; round < 3; round++) {
      for (const query of ['', '?currency=BRL', '?type=PIX']) {
        const a = await catalogue(ctx.app, withPix, query);
        const b = await catalogue(ctx.app, without, query);
        assert.equal(a.methods.find((m) => m.id === BRL_PIX_ID)?.status, 'ENABLED', `A${query}`);
        assert.equal(b.methods.find((m) => m.id === BRL_PIX_ID)?.status, 'DISABLED', `B${query}`);
        assert.notEqual(a.etag, b.etag);
        // B asking with A's ETag gets B's own answer, never a 304 for A's.
        const res = await ctx.app.inject({
          url: `/v1/payment_methods${query}`,
          headers: { ...without.authHeaders, 'if-none-match': a.etag },
        });
        assert.equal(res.statusCode, 200, query);
        const again = await ctx.app.inject({
          url: `/v1/payment_methods${query}`,
          headers: { ...withPix.authHeaders, 'if-none-match': a.etag },
        });
        assert.equal(again.statusCode, 304, query);
      }
    }
  });

  test('a live checkout offers exactly what can settle, and a payer posting another method’s id is refused', async (t) => {
    const ctx = await build(t);
    const live = await ctx.createMerchant('live', { pix: PIX });
    const pref = await createPreference(ctx.app, live, { currency: 'BRL', amount: 100 });

    const page = await ctx.app.inject({ url: `/checkout/${pref.id}` });
    assert.equal(page.statusCode, 200, page.body);
    const offered = [...page.body.matchAll(/value="([A-Za-z0-9]{22})" data-method-type="([A-Z_]+)"/g)].map((m) => m[1]);
    assert.deepEqual(offered, [BRL_PIX_ID]);
    const session = { cookie: cookieFrom(page) ?? '', token: tokenFrom(page.body) };

    for (const methodId of [BRL_CARD_ID, USD_BANK_TRANSFER_ID]) {
      const refused = await postForm(ctx.app, `/checkout/${pref.id}`, session, {
        ...PAYER,
        payment_method_id: methodId,
        card_number: '4242424242424242',
        card_expiry: '12/34',
        card_cvc: '737',
        card_holder_name: 'Ana Lima',
      });
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.body, /data-test="error-payment_method_id"/);
    }
    // Through the service the checkout calls, the refusal names the method and the reason.
    await assert.rejects(
      ctx.cobro.services.paymentStart.start(pref.id, { paymentMethodId: BRL_CARD_ID, payer: PAYER }),
      (error: { code?: string; messages?: string[] }) => {
        assert.equal(error.code, 'WRONG_INPUT');
        assert.deepEqual(error.messages, [
          `payment_method_id: the payment method ${BRL_CARD_ID} (CARD in BRL) is not available in live mode: card payments need a card processor connection`,
        ]);
        return true;
      },
    );
    const orders = await get(ctx.app, live, `/v1/payment_orders?checkout_preference_id=${pref.id}`);
    assert.deepEqual(orders.json().data, [], 'nothing was opened');

    const paid = await postForm(ctx.app, `/checkout/${pref.id}`, session, { ...PAYER, payment_method_id: BRL_PIX_ID });
    assert.equal(paid.statusCode, 303, paid.body);

    // The key removed: the checkout has nothing left to offer, and says so.
    await ctx.cobro.services.merchants.updateSettings(live.id, { pix: null });
    const nothing = await ctx.app.inject({ url: `/checkout/${pref.id}` });
    assert.equal(nothing.statusCode, 200, nothing.body);
    assert.match(nothing.body, /data-test="checkout-noMethods"/);
  });

  test('a live preference limited to methods that cannot settle is refused, naming each and why; partly settleable ones are made', async (t) => {
    const ctx = await build(t);
    const live = await ctx.createMerchant('live');
    const create = (body: Record<string, unknown>, who: TestMerchant = live) =>
      ctx.app.inject({ method: 'POST', url: '/v1/checkout_preferences', headers: who.authHeaders, payload: body });
    const refusal = async (body: Record<string, unknown>) => {
      const res = await create(body);
      assert.equal(res.statusCode, 400, res.body);
      const error = errorBody(res.body);
      assert.equal(error.code, 'WRONG_INPUT');
      return error.messages;
    };
    const brl = paymentBody({ currency: 'BRL', amount: 100 });

    assert.deepEqual(await refusal({ ...brl, selected_payment_method_id: BRL_PIX_ID }), [
      `selected_payment_method_id: the payment method ${BRL_PIX_ID} (PIX in BRL) is not available in live mode: needs a PIX key in the payment settings`,
    ]);
    assert.deepEqual(await refusal({ ...brl, payment_method_types: ['PIX', 'CARD'] }), [
      'payment_method_types: no payment method available in live mode can take BRL for this amount among payment_method_types ' +
        '(CARD in BRL: card payments need a card processor connection; PIX in BRL: needs a PIX key in the payment settings)',
    ]);
    assert.deepEqual(await refusal(brl), [
      'amount: no payment method available in live mode can take BRL for this amount ' +
        '(CARD in BRL: card payments need a card processor connection; ' +
        'PIX in BRL: needs a PIX key in the payment settings; ' +
        'CASH in BRL: no voucher network is connected for cash payments; ' +
        'USDT on Ethereum, USDC on Ethereum: this server does not watch Ethereum; ' +
        'USDT on Polygon: this server does not watch Polygon; USDC on Base: this server does not watch Base; ' +
        'BTC on Bitcoin: this server does not watch Bitcoin)',
    ]);
    const plan = await createPaymentLink(ctx.app, live, { currency: 'BRL', amount: 30 });
    const [subscription] = await refusal({ type: 'SUBSCRIPTION', origin: 'API', payment_link_id: plan.id });
    assert.match(
      subscription ?? '',
      /^payment_link_id: no payment method available in live mode can take BRL for this amount with recurrent payments \(CARD in BRL: .*PIX in BRL: needs a PIX key in the payment settings/,
    );
    // The payer's plan link cannot make a checkout either: it says the plan is unavailable.
    const link = await ctx.app.inject({ url: `/l/${plan.id}` });
    assert.equal(link.statusCode, 409, link.body);
    assert.match(link.body, /data-test="plan-link-unavailable"/);
    assert.deepEqual((await get(ctx.app, live, '/v1/checkout_preferences')).json().data, [], 'nothing was made');

    // A test key makes every one of them.
    for (const body of [{ ...brl, selected_payment_method_id: BRL_PIX_ID }, brl]) {
      assert.equal((await create(body, ctx.merchant)).statusCode, 201);
    }

    // With a PIX key: PIX alone, PIX-or-card (the payer gets PIX), anything in BRL, and the plan.
    await ctx.cobro.services.merchants.updateSettings(live.id, { pix: PIX });
    for (const body of [
      { ...brl, selected_payment_method_id: BRL_PIX_ID },
      { ...brl, payment_method_types: ['PIX', 'CARD'] },
      brl,
      { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: plan.id },
    ]) {
      const res = await create(body);
      assert.equal(res.statusCode, 201, `${JSON.stringify(body)}: ${res.body}`);
    }
    // Still refused: what the PIX key does not help.
    assert.deepEqual(await refusal({ ...brl, payment_method_types: ['CARD'] }), [
      'payment_method_types: no payment method available in live mode can take BRL for this amount among payment_method_types ' +
        '(CARD in BRL: card payments need a card processor connection)',
    ]);
  });

  test('a live renewal whose method can no longer settle waits for its due date, then fails and is retried like a declined one', async (t) => {
    const ctx = await build(t);
    const live = await ctx.createMerchant('live', { bank: BANK_DETAILS });
    const plan = await createPaymentLink(ctx.app, live, { currency: 'USD', amount: 20, interval_type: 'MONTH' });
    const pref = await createPreference(ctx.app, live, {
      type: 'SUBSCRIPTION',
      payment_link_id: plan.id,
      payment_method_types: ['BANK_TRANSFER'],
    });
    const first = await ctx.cobro.services.paymentStart.start(pref.id, {
      paymentMethodId: USD_BANK_TRANSFER_ID,
      payer: PAYER,
    });
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${first.id}/confirm`,
      headers: live.authHeaders,
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    const recId = first.recurrentPaymentId ?? '';
    const subscription = async () => (await get(ctx.app, live, `/v1/recurrent_payments/${recId}`)).json();
    const renewals = async () =>
      ((await get(ctx.app, live, `/v1/payment_orders?recurrent_payment_id=${recId}`)).json().data as { id: string }[])
        .filter((o) => o.id !== first.id)
        .map((o) => o.id);
    const active = await subscription();
    assert.equal(active.status, 'ACTIVE');
    const due = Date.parse(active.next_payment_date);

    // The merchant removes the bank details. Inside the notice window nothing is opened yet: there is time to fix it.
    await ctx.cobro.services.merchants.updateSettings(live.id, { bank: null });
    ctx.clock.advance(due - ctx.clock.now().getTime() - 2 * DAY_MS);
    await ctx.cobro.runJobs();
    assert.deepEqual(await renewals(), []);
    assert.equal((await subscription()).status, 'ACTIVE');

    // Due: the try fails at once, with the reason, and the subscription goes to its retries.
    ctx.clock.advance(2 * DAY_MS + 60_000);
    await ctx.cobro.runJobs();
    const [failedId] = await renewals();
    assert.ok(failedId, 'the renewal try is recorded');
    const failed = await getOrder(ctx.app, live, failedId);
    assert.equal(failed.status, 'REJECTED');
    assert.equal(failed.failure_code, 'bank_details_missing');
    assert.equal(failed.payment_instructions, null, 'no instructions that nothing could settle');
    const unpaid = await subscription();
    assert.equal(unpaid.status, 'UNPAID');
    assert.ok(Date.parse(unpaid.next_payment_date) > due, 'a retry is scheduled');

    // The details back before the retry: the retry is an ordinary renewal with instructions.
    await ctx.cobro.services.merchants.updateSettings(live.id, { bank: BANK_DETAILS });
    ctx.clock.advance(Date.parse(unpaid.next_payment_date) - ctx.clock.now().getTime() + 60_000);
    await ctx.cobro.runJobs();
    const retried = (await renewals()).filter((id) => id !== failedId);
    assert.equal(retried.length, 1);
    const retry = await getOrder(ctx.app, live, retried[0] ?? '');
    assert.equal(retry.status, 'OPENED');
    assert.equal(retry.payment_instructions?.type, 'BANK_TRANSFER');
  });

  test('the live payment settings page says what each method needs, and shows it offered once set up; the test page says test mode offers all', async (t) => {
    const ctx = await watchingBitcoin(t);
    const owner = await signedInMember(ctx, 'owner');
    const rowText = (body: string, key: string) => {
      const row = new RegExp(
        `<tr data-test="offer-${key}" data-offered="(yes|no)"><th scope="row">([^<]*)</th><td>(.*?)</td></tr>`,
      ).exec(body);
      assert.ok(row, `no row ${key}`);
      return `${row[1]} | ${row[2]} | ${row[3]?.replace(/<[^>]+>/g, '')}`;
    };
    const page0 = await owner.get('/dashboard/settings/payments');
    assert.equal(page0.statusCode, 200, page0.body);
    assert.equal(
      rowText(page0.body, 'card'),
      'no | Cards | Connect your Stripe account under Payment connections to take cards.',
    );
    assert.equal(rowText(page0.body, 'pix'), 'no | PIX | Add a PIX key below.');
    assert.equal(rowText(page0.body, 'bank_transfer'), 'no | Bank transfer | Add your bank details below.');
    assert.equal(rowText(page0.body, 'cash'), 'no | Cash | No voucher network is connected, so cash is not offered.');
    assert.equal(
      rowText(page0.body, 'btc-bitcoin'),
      'no | BTC on Bitcoin | Add your Bitcoin extended public key below; this server watches Bitcoin mainnet.',
    );
    assert.equal(
      rowText(page0.body, 'usdt-ethereum'),
      'no | USDT on Ethereum | This server does not watch Ethereum (operator: see docs/operations.md).',
    );
    const testPage = await owner.get('/dashboard/test/settings/payments');
    assert.match(testPage.body, /data-test="test-offers-all"/);
    assert.doesNotMatch(testPage.body, /data-test="live-offers"/);

    const saved = await owner.post('/dashboard/settings/payments', {
      pix_key: PIX.key,
      pix_name: PIX.merchant_name,
      pix_city: PIX.city,
      btc_xpub: BTC_TESTNET_TEST_VPUB,
      btc_network: 'testnet',
      evm_xpub: '',
      bank_name: BANK_DETAILS.bank_name,
      bank_holder: BANK_DETAILS.account_holder,
      bank_account: BANK_DETAILS.account_number,
      bank_routing: BANK_DETAILS.routing,
    });
    assert.equal(saved.statusCode, 303, saved.body);
    const page1 = await owner.get('/dashboard/settings/payments');
    assert.equal(rowText(page1.body, 'pix'), 'yes | PIX | Offered');
    assert.equal(rowText(page1.body, 'bank_transfer'), 'yes | Bank transfer | Offered');
    assert.equal(
      rowText(page1.body, 'btc-bitcoin'),
      'no | BTC on Bitcoin | Your Bitcoin key is for testnet, and this server watches Bitcoin mainnet: save a mainnet key below.',
    );
    assert.equal(
      rowText(page1.body, 'usdc-base'),
      'no | USDC on Base | This server does not watch Base (operator: see docs/operations.md).',
    );
    assert.match(rowText(page1.body, 'card'), /^no \| Cards/);

    await owner.get('/dashboard/settings/payments');
    const mainnet = await owner.post('/dashboard/settings/payments', {
      pix_key: '',
      pix_name: '',
      pix_city: '',
      btc_xpub: BTC_TEST_ZPUB,
      btc_network: 'mainnet',
      evm_xpub: '',
      bank_name: '',
      bank_holder: '',
      bank_account: '',
      bank_routing: '',
    });
    assert.equal(mainnet.statusCode, 303, mainnet.body);
    const page2 = await owner.get('/dashboard/settings/payments');
    assert.equal(rowText(page2.body, 'btc-bitcoin'), 'yes | BTC on Bitcoin | Offered');
    assert.equal(rowText(page2.body, 'pix'), 'no | PIX | Add a PIX key below.');
  });
});
