import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalToMinor, parseDecimal } from '../../src/domain/shared/money.ts';
import { EVM_TEST_XPUB } from '../../src/providers/crypto-onchain/derivation.ts';
import { createPreference } from '../support/builders.ts';
import { cobroArgs } from '../support/dist.ts';
import { baseUsdcSettings, startEvmNode } from '../support/evm-node.ts';
import { startCobroProcess, until } from '../support/processes.ts';
import { describeBackends } from '../support/test-app.ts';

// The chain watcher as operators run it: a `cobro worker` process watching a real EVM node. It
// is SIGKILLed between blocks, the payment gains its confirmations while nothing watches, and
// the next worker catches up from the scan cursor the first one left in the database.

const REQUIRED = 3;

describeBackends('live USDC watched by a worker process that is killed between blocks', (build) => {
  test('the restarted worker catches up from where the killed one stopped and closes the order', async (t) => {
    const node = await startEvmNode(t);
    const token = await node.deployToken({ decimals: 6, symbol: 'USDC' });
    const env = { ...baseUsdcSettings(node, token, REQUIRED), CHAIN_POLL_SECONDS: '1' };
    // The merchant and its order are made in the test's process, on the database the workers use.
    const ctx = await build(t, { env });
    const merchant = await ctx.createMerchant('live');
    await ctx.cobro.services.merchants.updateSettings(merchant.id, { crypto: { evm_xpub: EVM_TEST_XPUB } });
    const pref = await createPreference(ctx.app, merchant, { amount: 20, payment_method_types: ['CRYPTO_ONCHAIN'] });
    const [usdcOnBase] = (
      await ctx.cobro.services.paymentMethods.list({ type: 'CRYPTO_ONCHAIN', currency: 'USDC' })
    ).filter((m) => m.network?.id === 'base');
    const order = await ctx.cobro.services.paymentStart.start(pref.id, {
      paymentMethodId: usdcOnBase?.id ?? null,
      payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' },
    });
    const ins = order.instructions;
    if (ins?.type !== 'CRYPTO_ONCHAIN') {
      throw new Error('not a crypto order');
    }
    const amount = parseDecimal(ins.amount);
    assert.ok(amount);
    const units = decimalToMinor(amount, 6);

    const worker = () =>
      startCobroProcess(
        t,
        { ...env, DATABASE_URL: ctx.config.databaseUrl, SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=' },
        { args: cobroArgs('cobro', 'worker'), ready: 'Cobro worker is running' },
      );
    const read = () =>
      ctx.cobro.database.db
        .selectFrom('payment_orders')
        .selectAll()
        .where('id', '=', order.id)
        .executeTakeFirstOrThrow();
    const cursor = async () =>
      Number(
        (await ctx.cobro.database.db.selectFrom('chain_cursors').select('block_number').executeTakeFirst())
          ?.block_number ?? -1,
      );

    const first = await worker();
    await node.transfer(token, ins.address, units);
    const paidAt = await node.blockNumber();
    // The first worker sees the payment at one confirmation, then dies.
    await until('the first worker to scan the payment', async () => (await read()).chain_progress !== null, 30_000);
    assert.equal((await read()).status, 'OPENED');
    first.child.kill('SIGKILL');
    await first.exit;
    const stoppedAt = await cursor();
    assert.ok(stoppedAt >= paidAt);

    await node.mine(REQUIRED + 5);
    assert.equal((await read()).status, 'OPENED', 'nothing watched while the worker was down');
    const second = await worker();
    await until('the second worker to close the order', async () => (await read()).status === 'CLOSED', 30_000);
    assert.ok((await cursor()) > stoppedAt, 'it went on from where the first stopped');
    second.child.kill('SIGTERM');
    assert.equal(await second.exit, 0);
  });
});
