import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { decimalToMinor, parseDecimal } from '../../src/domain/shared/money.ts';
import { EVM_TEST_XPUB } from '../../src/providers/crypto-onchain/derivation.ts';
import { createPreference } from '../support/builders.ts';
import type { EvmNode } from '../support/evm-node.ts';
import { baseUsdcSettings, startEvmNode } from '../support/evm-node.ts';
import { getOrder } from '../support/payments.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../support/webhook-receiver.ts';

// Live USDC payments settle by themselves: the service scans a real EVM node (ganache, in the
// test's process, on loopback) for ERC-20 Transfer logs of a real OpenZeppelin token with 6
// decimals, configured as Base's USDC through the operator's settings. Blocks are mined by the
// test; the payer's transfers come from the node's funded accounts to the address the order
// derived from the merchant's extended public key.

const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };
const REQUIRED = 3;

type Setup = { ctx: TestApp; node: EvmNode; token: string; merchant: TestMerchant };

async function liveMerchant(ctx: TestApp): Promise<TestMerchant> {
  const live = await ctx.createMerchant('live');
  await ctx.cobro.services.merchants.updateSettings(live.id, { crypto: { evm_xpub: EVM_TEST_XPUB } });
  return live;
}

async function openUsdcOrder({ ctx, merchant }: Setup, amount = 20) {
  const pref = await createPreference(ctx.app, merchant, { amount, payment_method_types: ['CRYPTO_ONCHAIN'] });
  const methods = await ctx.cobro.services.paymentMethods.list({ type: 'CRYPTO_ONCHAIN', currency: 'USDC' });
  const base = methods.find((m) => m.network?.id === 'base');
  assert.ok(base, 'the catalogue offers USDC on Base');
  const order = await ctx.cobro.services.paymentStart.start(pref.id, { paymentMethodId: base.id, payer: PAYER });
  const ins = order.instructions;
  if (ins?.type !== 'CRYPTO_ONCHAIN') {
    throw new Error('not a crypto order');
  }
  assert.equal(ins.required_confirmations, REQUIRED);
  return { pref, order, address: ins.address, units: usdcUnits(ins.amount), uri: ins.uri };
}

describeBackends('live USDC payments watched on an EVM node', (build) => {
  async function setUp(t: TestContext, env: Record<string, string> = {}): Promise<Setup> {
    const node = await startEvmNode(t);
    const token = await node.deployToken({ decimals: 6, symbol: 'USDC' });
    const ctx = await build(t, { env: { ...baseUsdcSettings(node, token, REQUIRED), ...env } });
    return { ctx, node, token, merchant: await liveMerchant(ctx) };
  }

  test('an exact payment closes the order at the required confirmations and not before, and the merchant gets the signed webhook', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    // The production policy: loopback is refused unless the operator lists it.
    const setup = await setUp(t, { WEBHOOK_ALLOWLIST: `127.0.0.1:${receiver.port}` });
    const { ctx, node, token, merchant } = setup;
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: merchant.authHeaders,
      payload: { url: `${receiver.url}/hooks`, event_types: ['PAYMENT_ORDER.CLOSED'] },
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const { pref, order, address, units, uri } = await openUsdcOrder(setup);
    assert.equal(uri, `ethereum:${token}@${node.chainId}/transfer?address=${address}&uint256=${units}`);

    await node.transfer(token, address, units);
    for (let confirmations = 1; confirmations < REQUIRED; confirmations++) {
      await ctx.cobro.runJobs();
      const seen = await ctx.cobro.services.orders.getForCheckout(pref.id, order.id);
      assert.equal(seen?.status, 'OPENED', `${confirmations} confirmation(s) of ${REQUIRED}`);
      assert.deepEqual(seen?.chainProgress, { seenMinor: units, confirmations });
      await node.mine();
    }
    await ctx.cobro.runJobs();
    const closed = await getOrder(ctx.app, merchant, order.id);
    assert.equal(closed.status, 'CLOSED');
    assert.equal(closed.anomaly, 'NONE');
    const paid = await ctx.app.inject({ url: `/v1/checkout_preferences/${pref.id}`, headers: merchant.authHeaders });
    assert.equal(paid.json().status, 'PAID');

    await drainWebhooks(ctx.cobro);
    assert.equal(receiver.received.length, 1);
    const [delivery] = receiver.received;
    const body = new Webhook(endpoint.json().secret).verify(delivery?.body ?? '', {
      'webhook-id': String(delivery?.headers['webhook-id']),
      'webhook-timestamp': String(delivery?.headers['webhook-timestamp']),
      'webhook-signature': String(delivery?.headers['webhook-signature']),
    }) as { event_type: string; entity_id: string };
    assert.equal(body.event_type, 'PAYMENT_ORDER.CLOSED');
    assert.equal(body.entity_id, order.id);
  });

  test('an underpayment is recorded, and a top-up to the same address completes it', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    const { order, address, units } = await openUsdcOrder(setup);
    await node.transfer(token, address, units / 4n);
    await node.mine(REQUIRED);
    await ctx.cobro.runJobs();
    const under = await getOrder(ctx.app, merchant, order.id);
    assert.equal(under.status, 'OPENED');
    assert.equal(under.anomaly, 'UNDERPAID');
    // Two more transfers add up with the first.
    await node.transfer(token, address, units / 4n);
    await node.transfer(token, address, units - units / 2n);
    await node.mine(REQUIRED);
    await ctx.cobro.runJobs();
    const closed = await getOrder(ctx.app, merchant, order.id);
    assert.equal(closed.status, 'CLOSED');
    assert.equal(closed.anomaly, 'NONE');
  });

  test('an overpayment closes the order as OVERPAID, and another token sent to the address counts for nothing', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    const other = await node.deployToken({ decimals: 6, symbol: 'FAKE' });
    const { order, address, units } = await openUsdcOrder(setup);
    await node.transfer(other, address, units * 10n);
    await node.mine(REQUIRED);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED', 'not USDC');
    await node.transfer(token, address, units + 1_000_000n);
    await node.mine(REQUIRED);
    await ctx.cobro.runJobs();
    const closed = await getOrder(ctx.app, merchant, order.id);
    assert.equal(closed.status, 'CLOSED');
    assert.equal(closed.anomaly, 'OVERPAID');
  });

  test('a payment after the order expired is recorded as paid late, for the merchant to handle', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    const { order, address, units } = await openUsdcOrder(setup);
    ctx.clock.advance(order.expiresAt - ctx.clock.now().getTime() + 1_000);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'EXPIRED');
    await node.transfer(token, address, units);
    await node.mine(REQUIRED);
    await ctx.cobro.runJobs();
    const late = await getOrder(ctx.app, merchant, order.id);
    assert.equal(late.status, 'EXPIRED');
    assert.equal(late.anomaly, 'PAID_LATE');
  });

  test('a reorg that removes a payment at one confirmation leaves the order open, and the scan follows the new chain', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    const { pref, order, address, units } = await openUsdcOrder(setup);
    await node.mine(2);
    await ctx.cobro.runJobs();
    const fork = await node.snapshot();
    await node.transfer(token, address, units);
    await ctx.cobro.runJobs();
    assert.deepEqual((await ctx.cobro.services.orders.getForCheckout(pref.id, order.id))?.chainProgress, {
      seenMinor: units,
      confirmations: 1,
    });
    // The block with the payment is replaced by a longer chain without it.
    await node.revert(fork);
    await node.mine(REQUIRED + 1);
    await ctx.cobro.runJobs();
    const after = await ctx.cobro.services.orders.getForCheckout(pref.id, order.id);
    assert.equal(after?.status, 'OPENED');
    assert.equal(after?.chainProgress, null, 'the payment the reorg removed is forgotten');
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED');
    // Paid again on the new chain: it counts there.
    await node.transfer(token, address, units);
    await node.mine(REQUIRED - 1);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'CLOSED');
  });

  test('a watcher that was down catches up from where its scan stopped', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    const { order, address, units } = await openUsdcOrder(setup);
    await ctx.cobro.runJobs();
    const before = await ctx.cobro.database.db.selectFrom('chain_cursors').selectAll().executeTakeFirstOrThrow();
    // Nothing watches while the payment is made and buried under many blocks.
    await node.transfer(token, address, units);
    await node.mine(40);
    const restarted = await build(t, {
      databaseUrl: ctx.config.databaseUrl,
      env: baseUsdcSettings(setup.node, setup.token, REQUIRED),
    });
    await restarted.cobro.runJobs();
    assert.equal((await getOrder(restarted.app, merchant, order.id)).status, 'CLOSED');
    const after = await restarted.cobro.database.db.selectFrom('chain_cursors').selectAll().executeTakeFirstOrThrow();
    assert.ok(Number(after.block_number) > Number(before.block_number));
  });

  test('with no order open on the network, the scan keeps up with the tip, so a new order is watched from there', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    await node.mine(700);
    await ctx.cobro.runJobs();
    const cursor = async () =>
      Number(
        (await ctx.cobro.database.db.selectFrom('chain_cursors').select('block_number').executeTakeFirstOrThrow())
          .block_number,
      );
    assert.equal(await cursor(), await node.blockNumber());
    await node.mine(5_000);
    await ctx.cobro.runJobs();
    assert.equal(await cursor(), await node.blockNumber(), 'one run, however far the tip went');
    const { order, address, units } = await openUsdcOrder(setup);
    await node.transfer(token, address, units);
    await node.mine(REQUIRED - 1);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'CLOSED');
  });

  test('several workers scanning the same chain at once record each transfer once and close the order once', async (t) => {
    const setup = await setUp(t);
    const { ctx, node, token, merchant } = setup;
    const others = await Promise.all(
      [1, 2].map(() =>
        build(t, { databaseUrl: ctx.config.databaseUrl, env: baseUsdcSettings(setup.node, setup.token, REQUIRED) }),
      ),
    );
    const workers = [ctx, ...others];
    const { order, address, units } = await openUsdcOrder(setup);
    await node.transfer(token, address, units / 2n);
    await node.transfer(token, address, units - units / 2n);
    await node.mine(REQUIRED);
    for (let round = 0; round < 3; round++) {
      await Promise.all(workers.map((w) => w.cobro.chainObserver.observe('live')));
    }
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'CLOSED');
    const transfers = await ctx.cobro.database.db.selectFrom('chain_transfers').selectAll().execute();
    assert.equal(transfers.length, 2);
    const closedEvents = await ctx.cobro.database.db
      .selectFrom('events')
      .select('id')
      .where('entity_id', '=', order.id)
      .where('event_type', '=', 'PAYMENT_ORDER.CLOSED')
      .execute();
    assert.equal(closedEvents.length, 1);
  });

  test('a live key sees the networks nobody watches as DISABLED, and its checkout does not offer them; a test key sees them all', async (t) => {
    const setup = await setUp(t);
    const { ctx, merchant } = setup;
    const statusOf = async (who: TestMerchant) => {
      const res = await ctx.app.inject({
        url: '/v1/payment_methods?type=CRYPTO_ONCHAIN',
        headers: who.authHeaders,
      });
      assert.equal(res.statusCode, 200, res.body);
      const methods = res.json().payment_methods as { currency: string; network: { id: string }; status: string }[];
      return Object.fromEntries(methods.map((m) => [`${m.network.id}:${m.currency}`, m.status]));
    };
    const live = await statusOf(merchant);
    assert.equal(live['base:USDC'], 'ENABLED');
    assert.equal(live['polygon:USDT'], 'DISABLED');
    assert.equal(live['bitcoin:BTC'], 'DISABLED');
    const test = await statusOf(ctx.merchant);
    assert.ok(Object.values(test).every((s) => s === 'ENABLED'));
    const pref = await createPreference(ctx.app, merchant, { amount: 20, payment_method_types: ['CRYPTO_ONCHAIN'] });
    const offered = await ctx.cobro.services.orders.eligibleFor(
      await ctx.cobro.services.preferences.get(
        { merchantId: merchant.id, mode: 'live', key: merchant.apiKey },
        pref.id,
      ),
    );
    assert.deepEqual(
      offered.map((m) => m.network?.id),
      ['base'],
    );
  });

  test('a token whose decimals differ from the catalogue, or a node of another chain, is refused and closes nothing', async (t) => {
    const node = await startEvmNode(t);
    const wrong = await node.deployToken({ decimals: 18, symbol: 'USDC' });
    for (const env of [
      { EVM_TOKEN_BASE_USDC: wrong, EVM_CHAIN_ID_BASE: String(node.chainId) },
      { EVM_TOKEN_BASE_USDC: wrong, EVM_CHAIN_ID_BASE: '8453' },
    ]) {
      const ctx = await build(t, {
        env: { EVM_RPC_URL_BASE: node.url, BASE_CONFIRMATIONS: String(REQUIRED), ...env },
      });
      const merchant = await liveMerchant(ctx);
      const { order, address, units } = await openUsdcOrder({ ctx, node, token: wrong, merchant });
      await node.transfer(wrong, address, units * 10n ** 12n);
      await node.mine(REQUIRED);
      await ctx.cobro.runJobs();
      assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED');
      const base = (await ctx.app.inject({ url: '/ready' })).json().chains.base;
      assert.equal(base.ok, false);
      assert.match(base.last_error, env.EVM_CHAIN_ID_BASE === '8453' ? /on chain 1337, expected 8453/ : /18 decimals/);
    }
  });
});

/** An instruction amount ("20.000000") in USDC base units. */
function usdcUnits(amount: string): bigint {
  const parsed = parseDecimal(amount);
  assert.ok(parsed);
  return decimalToMinor(parsed, 6);
}
