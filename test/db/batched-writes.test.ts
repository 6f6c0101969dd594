import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';
import type { UnitOfWork } from '../../src/domain/shared/unit-of-work.ts';
import { BatchedWrites } from '../../src/jobs/batched-writes.ts';

// Writes gathered into one transaction (src/jobs/batched-writes.ts), as webhook delivery records
// its attempts: on a real SQLite database, counting the transactions it opens.

async function counted(t: { after: (fn: () => void | Promise<void>) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-batched-writes-'));
  const database = await openDatabase({ url: `sqlite:${join(dir, 'cobro.db')}` });
  await database.migrate();
  t.after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const transactions = { count: 0 };
  const uow: UnitOfWork = {
    read: database.uow.read,
    transaction: (fn) => {
      transactions.count++;
      return database.uow.transaction(fn);
    },
    oneStatement: (fn) => database.uow.oneStatement(fn),
  };
  return { database, uow, transactions };
}

const merchant = (n: number) => ({
  id: `m${String(n).padStart(21, '0')}`,
  name: `Merchant ${n}`,
  createdAt: 1_700_000_000_000,
});

test('writes made together commit in one transaction, and each resolves only once its row is there', async (t) => {
  const { database, uow, transactions } = await counted(t);
  const writes = new BatchedWrites(uow, { maxWaitMs: 20, maxBatch: 100 });
  const ids = Array.from({ length: 10 }, (_, i) => merchant(i));
  await Promise.all(
    ids.map(async (m) => {
      await writes.write((repos) => repos.merchants.insert(m));
      // Resolved means committed: a read on committed data (the other connection) finds it.
      assert.ok(await database.uow.read.merchants.get(m.id), `${m.id} resolved before it was committed`);
    }),
  );
  assert.equal(transactions.count, 1);
});

test('a full batch is written at once, without waiting for the others to join it', async (t) => {
  const { uow, transactions } = await counted(t);
  const writes = new BatchedWrites(uow, { maxWaitMs: 60_000, maxBatch: 5 });
  const started = Date.now();
  await Promise.all(Array.from({ length: 10 }, (_, i) => writes.write((repos) => repos.merchants.insert(merchant(i)))));
  assert.equal(transactions.count, 2);
  // Far less than the one-minute wait: both batches were full.
  assert.ok(Date.now() - started < 30_000);
});

test('a write that fails fails alone: the others of its batch are written all the same', async (t) => {
  const { database, uow } = await counted(t);
  const writes = new BatchedWrites(uow, { maxWaitMs: 20, maxBatch: 100 });
  const outcomes = await Promise.allSettled(
    [1, 2, 3, 4].map((n) =>
      writes.write(async (repos) => {
        await repos.merchants.insert(merchant(n));
        if (n === 3) {
          throw new Error('write 3 is refused');
        }
      }),
    ),
  );
  assert.deepEqual(
    outcomes.map((o) => o.status),
    ['fulfilled', 'fulfilled', 'rejected', 'fulfilled'],
  );
  assert.equal((outcomes[2] as PromiseRejectedResult).reason.message, 'write 3 is refused');
  for (const n of [1, 2, 4]) {
    assert.ok(await database.uow.read.merchants.get(merchant(n).id));
  }
  assert.equal(await database.uow.read.merchants.get(merchant(3).id), undefined);
});
