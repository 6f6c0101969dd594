import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
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

function openUsdcOrder(setup: Setup, amount = 20) {
  return openTokenOrder(setup, 'USDC', 'base', amount);
}

async function openTokenOrder({ ctx, merchant }: Setup, currency: 'USDC' | 'USDT', network = 'ethereum', amount = 20) {
  const pref = await createPreference(ctx.app, merchant, { amount, payment_method_types: ['CRYPTO_ONCHAIN'] });
  const methods = await ctx.cobro.services.paymentMethods.list({ type: 'CRYPTO_ONCHAIN', currency });
  const method = methods.find((m) => m.network?.id === network);
  assert.ok(method, `the catalogue offers ${currency} on ${network}`);
  const order = await ctx.cobro.services.paymentStart.start(pref.id, { paymentMethodId: method.id, payer: PAYER });
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

  test('a node of another chain fails the whole source and closes nothing', async (t) => {
    const node = await startEvmNode(t);
    const token = await node.deployToken({ decimals: 6, symbol: 'USDC' });
    const ctx = await build(t, { env: { ...baseUsdcSettings(node, token, REQUIRED), EVM_CHAIN_ID_BASE: '8453' } });
    const merchant = await liveMerchant(ctx);
    const { order, address, units } = await openUsdcOrder({ ctx, node, token, merchant });
    await node.transfer(token, address, units);
    await node.mine(REQUIRED);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, merchant, order.id)).status, 'OPENED');
    const base = (await ctx.app.inject({ url: '/ready' })).json().chains.base;
    assert.equal(base.ok, false);
    assert.match(base.last_error, /on chain 1337, expected 8453/);
    assert.equal(base.tokens.USDC.status, 'UNVERIFIED', 'no token is believed from a node of another chain');
  });

  describe('two tokens on one network, one of them broken', () => {
    /** Ethereum watched on the node, its USDC a real 6-decimal token and its USDT at `usdt`. */
    async function twoTokens(t: TestContext, usdt: (node: EvmNode) => Promise<string>) {
      const node = await startEvmNode(t);
      const usdc = await node.deployToken({ decimals: 6, symbol: 'USDC' });
      const usdtAt = await usdt(node);
      const ctx = await build(t, {
        env: {
          EVM_RPC_URL_ETHEREUM: node.url,
          EVM_CHAIN_ID_ETHEREUM: String(node.chainId),
          EVM_TOKEN_ETHEREUM_USDC: usdc,
          EVM_TOKEN_ETHEREUM_USDT: usdtAt,
          ETHEREUM_CONFIRMATIONS: String(REQUIRED),
        },
      });
      const merchant = await liveMerchant(ctx);
      const open = (currency: 'USDC' | 'USDT') => openTokenOrder({ ctx, node, token: usdc, merchant }, currency);
      return { ctx, node, usdc, usdt: usdtAt, merchant, open };
    }

    async function ethereumStatus(ctx: TestApp) {
      const ready = await ctx.app.inject({ url: '/ready' });
      assert.equal(ready.statusCode, 200);
      return ready.json().chains.ethereum;
    }

    test("where USDT's contract does not answer decimals(), USDC payments still settle; USDT is DISABLED with its reason in /ready and the metrics, and no live USDT order is opened", async (t) => {
      // A testnet where only USDC is deployed: nothing answers at USDT's address.
      const missing = '0x00000000000000000000000000000000000dead1';
      const { ctx, node, usdc, merchant, open } = await twoTokens(t, async () => missing);
      const paid = await open('USDC');
      await node.transfer(usdc, paid.address, paid.units);
      await node.mine(REQUIRED - 1);
      await ctx.cobro.runJobs();
      assert.equal((await getOrder(ctx.app, merchant, paid.order.id)).status, 'CLOSED');

      const ethereum = await ethereumStatus(ctx);
      assert.equal(ethereum.ok, true, 'the node is fine: only one token is not');
      assert.equal(ethereum.last_error, null);
      assert.deepEqual(ethereum.tokens.USDC, { contract: usdc, status: 'ENABLED', reason: null });
      assert.equal(ethereum.tokens.USDT.status, 'DISABLED');
      assert.equal(ethereum.tokens.USDT.contract, missing);
      assert.match(ethereum.tokens.USDT.reason, new RegExp(`^USDT at ${missing} did not answer decimals()`));
      const metrics = (await ctx.app.inject({ url: '/metrics' })).body;
      assert.match(metrics, /cobro_chain_token_enabled\{network="ethereum",currency="USDC"\} 1/);
      assert.match(metrics, /cobro_chain_token_enabled\{network="ethereum",currency="USDT"\} 0/);

      const live = ctx.cobro.providers.liveChain;
      assert.equal(live.watches('ethereum', 'USDT'), false);
      assert.equal(live.watches('ethereum', 'USDC'), true);
      assert.equal(live.watches('ethereum'), true, 'the network itself is watched');
      await assert.rejects(open('USDT'), (error: { code?: string; messages?: string[] }) => {
        assert.equal(error.code, 'WRONG_INPUT');
        assert.match((error.messages ?? []).join(' '), /USDT payments on ethereum are not watched on this server now/);
        return true;
      });
    });

    test('a token whose decimals disagree with the catalogue is DISABLED and its transfers count for nothing, while the other token settles', async (t) => {
      const { ctx, node, usdc, usdt, merchant, open } = await twoTokens(t, (node) =>
        node.deployToken({ decimals: 18, symbol: 'USDT' }),
      );
      // Both orders are opened before the first check: nothing was known against USDT yet.
      const inUsdt = await open('USDT');
      const inUsdc = await open('USDC');
      await node.transfer(usdt, inUsdt.address, inUsdt.units * 10n ** 12n);
      await node.transfer(usdc, inUsdc.address, inUsdc.units);
      await node.mine(REQUIRED);
      await ctx.cobro.runJobs();
      assert.equal((await getOrder(ctx.app, merchant, inUsdc.order.id)).status, 'CLOSED');
      const notCounted = await ctx.cobro.services.orders.getForCheckout(inUsdt.pref.id, inUsdt.order.id);
      assert.equal(notCounted?.status, 'OPENED');
      assert.equal(notCounted?.chainProgress, null, "a disabled token's transfer is not even shown as seen");

      const ethereum = await ethereumStatus(ctx);
      assert.equal(ethereum.ok, true);
      assert.deepEqual(ethereum.tokens.USDT, {
        contract: usdt,
        status: 'DISABLED',
        reason: `USDT at ${usdt} has 18 decimals, the catalogue 6`,
      });
      assert.equal(ethereum.tokens.USDC.status, 'ENABLED');
      assert.match(
        (await ctx.app.inject({ url: '/metrics' })).body,
        /cobro_chain_token_enabled\{network="ethereum",currency="USDT"\} 0/,
      );
      assert.equal(ctx.cobro.providers.liveChain.watches('ethereum', 'USDT'), false);
    });
  });
});

/** An instruction amount ("20.000000") in the base units of a 6-decimal token (USDC, USDT). */
function usdcUnits(amount: string): bigint {
  const parsed = parseDecimal(amount);
  assert.ok(parsed);
  return decimalToMinor(parsed, 6);
}
