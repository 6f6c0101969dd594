import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EsploraWatcher } from '../../../src/providers/crypto-onchain/chain-watchers.ts';
import { ChainSourceError, EsploraClient } from '../../../src/providers/crypto-onchain/esplora.ts';
import type { FakeEsplora } from '../../support/fake-esplora.ts';
import { startFakeEsplora } from '../../support/fake-esplora.ts';

// The Esplora client and the Bitcoin watcher against a chain served in the shapes of the Esplora
// API documentation (test/support/fake-esplora.ts): what an address received, how many
// confirmations each payment has, paging, reorgs, and a source that misbehaves.

const ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu';

async function chain(t: import('node:test').TestContext): Promise<FakeEsplora> {
  const fake = await startFakeEsplora();
  t.after(() => fake.close());
  return fake;
}

/** A watcher whose clock the test moves: each poll window is 1,000 "ms". */
function watcherOn(fake: FakeEsplora, options: { timeoutMs?: number; maxResponseBytes?: number } = {}) {
  let now = 0;
  const client = new EsploraClient({ baseUrl: fake.url, ...options });
  const watcher = new EsploraWatcher(client, { now: () => now, pollMs: 1_000 });
  return {
    client,
    watcher,
    /** Moves past the poll window, so the next question goes to the source. */
    later() {
      now += 1_001;
    },
    received: () => watcher.receivedAt('bitcoin', ADDRESS),
  };
}

test('a payment is seen in the mempool with no confirmation, then counts its confirmations from the tip', async (t) => {
  const fake = await chain(t);
  const w = watcherOn(fake);
  const txid = fake.pay(ADDRESS, 150_000);
  assert.deepEqual(await w.received(), [{ txid, amountBaseUnits: 150_000n, confirmations: 0 }]);
  fake.mine();
  w.later();
  assert.deepEqual(await w.received(), [{ txid, amountBaseUnits: 150_000n, confirmations: 1 }]);
  fake.mine(2);
  w.later();
  assert.equal((await w.received())[0]?.confirmations, 3);
});

test("outputs to the address are summed per transaction, other addresses' outputs ignored, several transactions kept apart", async (t) => {
  const fake = await chain(t);
  const w = watcherOn(fake);
  fake.txs.push({
    txid: 'a'.repeat(64),
    outputs: [
      { address: ADDRESS, value: 1_000 },
      { address: 'bc1qsomeoneelse', value: 99_999 },
      { address: ADDRESS, value: 2_500 },
    ],
    blockHeight: fake.tip,
  });
  fake.pay(ADDRESS, 700);
  fake.pay('bc1qsomeoneelse', 5_000);
  const received = await w.received();
  assert.deepEqual(
    received.map((r) => [r.amountBaseUnits, r.confirmations]),
    [
      [700n, 0],
      [3_500n, 1],
    ],
  );
});

test('more than 25 confirmed transactions are read page by page, each once', async (t) => {
  const fake = await chain(t);
  const w = watcherOn(fake);
  for (let i = 0; i < 60; i++) {
    fake.pay(ADDRESS, 1_000 + i, fake.tip - i);
  }
  fake.pay(ADDRESS, 5);
  const received = await w.received();
  assert.equal(received.length, 61);
  assert.equal(new Set(received.map((r) => r.txid)).size, 61);
  assert.equal(
    received.reduce((sum, r) => sum + r.amountBaseUnits, 0n),
    BigInt(60 * 1_000 + (59 * 60) / 2 + 5),
  );
  assert.equal(fake.requests.filter((p) => p.includes('/txs/chain/')).length, 2, 'pages 2 and 3 of confirmed');
});

test('a payment a reorg sends back to the mempool, or drops, stops counting its confirmations', async (t) => {
  const fake = await chain(t);
  const w = watcherOn(fake);
  fake.pay(ADDRESS, 50_000);
  fake.mine();
  assert.equal((await w.received())[0]?.confirmations, 1);
  fake.reorg(fake.tip - 1, 'mempool');
  w.later();
  assert.equal((await w.received())[0]?.confirmations, 0);
  fake.mine();
  w.later();
  assert.equal((await w.received())[0]?.confirmations, 1);
  fake.reorg(fake.tip - 1, 'dropped');
  w.later();
  assert.deepEqual(await w.received(), []);
});

test('a tip lower than one already seen is an error, and nothing is reported until the source is back', async (t) => {
  const fake = await chain(t);
  const w = watcherOn(fake);
  fake.pay(ADDRESS, 50_000, fake.tip - 5);
  assert.equal((await w.received())[0]?.confirmations, 6);
  fake.tip -= 3;
  w.later();
  await assert.rejects(w.received(), /tip went backwards/);
  fake.tip += 4;
  w.later();
  assert.equal((await w.received())[0]?.confirmations, 7);
});

test('within a poll window the source is asked once, and a failing source is not asked again until the window ends', async (t) => {
  const fake = await chain(t);
  const w = watcherOn(fake);
  fake.pay(ADDRESS, 1);
  await w.received();
  await w.received();
  assert.equal(fake.requests.length, 2, 'one tip and one address question');
  w.later();
  fake.fault = 'status-500';
  await assert.rejects(w.received(), ChainSourceError);
  const asked = fake.requests.length;
  await assert.rejects(w.received(), ChainSourceError);
  assert.equal(fake.requests.length, asked);
  fake.fault = null;
  w.later();
  assert.equal((await w.received()).length, 1);
});

test('errors, garbage, a wrong shape, oversized answers and a source that never answers all fail the call, quickly and cleanly', async (t) => {
  const fake = await chain(t);
  fake.pay(ADDRESS, 1_000, fake.tip);
  const client = new EsploraClient({ baseUrl: fake.url, timeoutMs: 300, maxResponseBytes: 1024 * 1024 });
  for (const fault of ['status-500', 'garbage', 'wrong-shape', 'huge', 'huge-chunked', 'hang'] as const) {
    fake.fault = fault;
    await assert.rejects(client.payments(ADDRESS), ChainSourceError, `payments with ${fault}`);
    await assert.rejects(client.tipHeight(), ChainSourceError, `tip with ${fault}`);
  }
  fake.fault = null;
  // Up to three tries: its 300 ms are for the faults above, and a pause of a loaded machine is not
  // one. A client the faults had broken would fail all three.
  let payments: unknown[] | undefined;
  for (let attempt = 0; attempt < 3 && !payments; attempt++) {
    payments = await client.payments(ADDRESS).catch(() => undefined);
  }
  assert.equal(payments?.length, 1, 'the same client works once the source does');
});
