import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { BTC_TEST_ZPUB, EVM_TEST_XPUB } from '../../src/providers/crypto-onchain/derivation.ts';
import { createPreference } from '../support/builders.ts';
import type { FakeEsplora } from '../support/fake-esplora.ts';
import { startFakeEsplora } from '../support/fake-esplora.ts';
import { getOrder } from '../support/payments.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

// Live Bitcoin payments settle by themselves: the service watches the order's address through
// the Esplora API the operator configured (BITCOIN_ESPLORA_URL), here a chain served on loopback
// in Esplora's shapes. The order closes at the required confirmations and not before, a reorg
// takes back a payment that had not reached them, and a source that fails delays nothing else.

const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };
/** CHAIN_POLL_SECONDS=1: an address is asked about again after a second. */
const NEXT_POLL_MS = 1_100;

/** Decimal amount text to base units ("0.00031250" with 8 decimals → 31250n). */
function baseUnits(amount: string, decimals: number): bigint {
  const [whole = '0', fraction = ''] = amount.split('.');
  return BigInt(whole + fraction.padEnd(decimals, '0'));
}

async function liveMerchant(ctx: TestApp): Promise<TestMerchant> {
  const live = await ctx.createMerchant('live');
  await ctx.cobro.services.merchants.updateSettings(live.id, {
    crypto: { btc_xpub: BTC_TEST_ZPUB, btc_network: 'mainnet', evm_xpub: EVM_TEST_XPUB },
  });
  return live;
}

async function openBitcoinOrder(ctx: TestApp, merchant: TestMerchant) {
  const pref = await createPreference(ctx.app, merchant, { amount: 20, payment_method_types: ['CRYPTO_ONCHAIN'] });
  const [bitcoin] = await ctx.cobro.services.paymentMethods.list({ type: 'CRYPTO_ONCHAIN', currency: 'BTC' });
  const order = await ctx.cobro.services.paymentStart.start(pref.id, {
    paymentMethodId: bitcoin?.id ?? null,
    payer: PAYER,
  });
  const ins = order.instructions;
  assert.equal(ins?.type, 'CRYPTO_ONCHAIN');
  if (ins?.type !== 'CRYPTO_ONCHAIN') {
    throw new Error('not a crypto order');
  }
  assert.equal(ins.network, 'bitcoin');
  return { pref, order, address: ins.address, sats: baseUnits(ins.amount, 8) };
}

describeBackends('live Bitcoin payments watched through Esplora', (build) => {
  async function setUp(t: import('node:test').TestContext): Promise<{ ctx: TestApp; fake: FakeEsplora }> {
    const fake = await startFakeEsplora();
    t.after(() => fake.close());
    const ctx = await build(t, {
      env: { BITCOIN_ESPLORA_URL: fake.url, CHAIN_POLL_SECONDS: '1', BITCOIN_CONFIRMATIONS: '2' },
    });
    return { ctx, fake };
  }

  test('an exact payment closes the order at the required confirmations, not before, and a reorg takes back one that had not reached them', async (t) => {
    const { ctx, fake } = await setUp(t);
    const merchant = await liveMerchant(ctx);
    const { pref, order, address, sats } = await openBitcoinOrder(ctx, merchant);
    assert.match(address, /^bc1q/);

    fake.pay(address, Number(sats));
    fake.mine();
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED', 'one confirmation of two');

    // The block is replaced: the payment is back in the mempool, with no confirmation.
    fake.reorg(fake.tip - 1, 'mempool');
    fake.tip += 1;
    await sleep(NEXT_POLL_MS);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED');

    fake.mine(2);
    await sleep(NEXT_POLL_MS);
    await ctx.cobro.runJobs();
    const closed = await getOrder(ctx.app, merchant, order.id);
    assert.equal(closed.status, 'CLOSED');
    assert.equal(closed.anomaly, 'NONE');
    const paidPref = await ctx.app.inject({
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(paidPref.json().status, 'PAID');
    const events = await ctx.cobro.database.db
      .selectFrom('events')
      .select('event_type')
      .where('entity_id', '=', order.id)
      .where('event_type', '=', 'PAYMENT_ORDER.CLOSED')
      .execute();
    assert.equal(events.length, 1, 'one CLOSED event, which the merchant is sent');
  });

  test('an underpayment is recorded, and a second transfer to the same address completes it', async (t) => {
    const { ctx, fake } = await setUp(t);
    const merchant = await liveMerchant(ctx);
    const { order, address, sats } = await openBitcoinOrder(ctx, merchant);
    fake.pay(address, Number(sats / 2n));
    fake.mine(2);
    await ctx.cobro.runJobs();
    const under = await getOrder(ctx.app, merchant, order.id);
    assert.equal(under.status, 'OPENED');
    assert.equal(under.anomaly, 'UNDERPAID');
    fake.pay(address, Number(sats - sats / 2n));
    fake.mine(2);
    await sleep(NEXT_POLL_MS);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'CLOSED');
  });

  test('a source that fails or lies closes nothing and holds up no other job; the order closes once it is back', async (t) => {
    const { ctx, fake } = await setUp(t);
    const merchant = await liveMerchant(ctx);
    const { order, address, sats } = await openBitcoinOrder(ctx, merchant);
    fake.pay(address, Number(sats));
    fake.mine(3);
    // A test-mode order of another merchant falls due in the same run of the jobs, which its
    // test clock's advance starts while the source is failing.
    const other = await createPreference(ctx.app, ctx.merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const pix = await ctx.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/checkout_preferences/${other.id}/pay`,
      headers: ctx.merchant.authHeaders,
      payload: { outcome: 'PENDING' },
    });
    fake.fault = 'status-500';
    const advanced = await ctx.app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: ctx.merchant.authHeaders,
      payload: { seconds: 3 * 86_400 },
    });
    assert.equal(advanced.statusCode, 200, advanced.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, pix.json().id)).status, 'EXPIRED', 'expiry ran all the same');
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED');
    for (const fault of ['garbage', 'wrong-shape', 'huge'] as const) {
      fake.fault = fault;
      await sleep(NEXT_POLL_MS);
      await ctx.cobro.runJobs();
      assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED', `with ${fault}`);
    }
    // The operator sees it, and the service stays ready: only these orders wait.
    const ready = await ctx.app.inject({ url: '/ready' });
    assert.equal(ready.statusCode, 200);
    const bitcoin = ready.json().chains.bitcoin;
    assert.equal(bitcoin.ok, false);
    assert.match(bitcoin.last_error, /byte limit/);
    const metrics = (await ctx.app.inject({ url: '/metrics' })).body;
    assert.match(metrics, /cobro_chain_rpc_errors_total\{network="bitcoin"\} 4/);

    fake.fault = null;
    await sleep(NEXT_POLL_MS);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'CLOSED');
    assert.deepEqual((await ctx.app.inject({ url: '/ready' })).json().chains.bitcoin, {
      ok: true,
      tip_height: fake.tip,
      errors: 4,
      last_error: null,
    });
    assert.match(
      (await ctx.app.inject({ url: '/metrics' })).body,
      new RegExp(`cobro_chain_tip_height\\{network="bitcoin"\\} ${fake.tip}`),
    );
  });

  test('a live order on a network with no chain source is refused before an address is handed out', async (t) => {
    const { ctx } = await setUp(t);
    const merchant = await liveMerchant(ctx);
    const pref = await createPreference(ctx.app, merchant, { amount: 20, payment_method_types: ['CRYPTO_ONCHAIN'] });
    const methods = await ctx.cobro.services.paymentMethods.list({ type: 'CRYPTO_ONCHAIN', currency: 'USDT' });
    const polygon = methods.find((m) => m.network?.id === 'polygon');
    assert.ok(polygon);
    await assert.rejects(
      ctx.cobro.services.paymentStart.start(pref.id, { paymentMethodId: polygon.id, payer: PAYER }),
      (error: { code?: string; messages?: string[] }) => {
        assert.equal(error.code, 'WRONG_INPUT');
        assert.match(
          (error.messages ?? []).join(' '),
          /^payment_method_id: the payment method \w+ \(USDT on Polygon\) is not available in live mode: this server does not watch Polygon$/,
        );
        return true;
      },
    );
  });
});
