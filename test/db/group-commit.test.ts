import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../src/db/database.ts';

// SQLite group commit (src/db/group-commit.ts): units of work that arrive together share one
// COMMIT, each in its own SAVEPOINT. What callers must be able to rely on is tested here.

async function withSqlite(t: { after: (fn: () => void | Promise<void>) => void }) {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-group-commit-'));
  const url = `sqlite:${join(dir, 'cobro.db')}`;
  const database = await openDatabase({ url });
  await database.migrate();
  t.after(async () => {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return { database, url };
}

const merchant = (id: string) => ({ id, name: `Merchant ${id}`, createdAt: 1_700_000_000_000 });

test('a failing unit rolls back alone while the units committed with it keep their rows', async (t) => {
  const { database } = await withSqlite(t);
  const ids = Array.from({ length: 20 }, (_, i) => `m${String(i).padStart(21, '0')}`);
  const outcomes = await Promise.allSettled(
    ids.map((id, i) =>
      database.uow.transaction(async (repos) => {
        await repos.merchants.insert(merchant(id));
        if (i === 7) {
          throw new Error('unit 7 changed its mind');
        }
        return id;
      }),
    ),
  );
  assert.equal(outcomes[7]?.status, 'rejected');
  assert.equal((outcomes[7] as PromiseRejectedResult).reason.message, 'unit 7 changed its mind');
  for (const [i, outcome] of outcomes.entries()) {
    if (i !== 7) {
      assert.deepEqual(outcome, { status: 'fulfilled', value: ids[i] });
    }
  }
  for (const [i, id] of ids.entries()) {
    const stored = await database.uow.read.merchants.get(id);
    assert.equal(stored === undefined, i === 7, `merchant ${i}`);
  }
});

test('a unit sees the writes of the units before it in the same commit', async (t) => {
  const { database } = await withSqlite(t);
  const first = database.uow.transaction((repos) => repos.merchants.insert(merchant('a'.repeat(22))));
  const second = database.uow.transaction(async (repos) => (await repos.merchants.get('a'.repeat(22)))?.name);
  await first;
  assert.equal(await second, `Merchant ${'a'.repeat(22)}`);
});

test('an answered unit is in the database file: a new connection reads it after a close', async (t) => {
  const { database, url } = await withSqlite(t);
  await Promise.all(
    ['b', 'c', 'd'].map((c) => database.uow.transaction((repos) => repos.merchants.insert(merchant(c.repeat(22))))),
  );
  const other = await openDatabase({ url });
  try {
    for (const c of ['b', 'c', 'd']) {
      assert.ok(await other.uow.read.merchants.get(c.repeat(22)), `merchant ${c}`);
    }
  } finally {
    await other.close();
  }
});

test('a unique violation in one unit fails that unit only, with the database error', async (t) => {
  const { database } = await withSqlite(t);
  const id = 'e'.repeat(22);
  const [a, b, c] = await Promise.allSettled([
    database.uow.transaction((repos) => repos.merchants.insert(merchant(id))),
    database.uow.transaction((repos) => repos.merchants.insert(merchant(id))),
    database.uow.transaction((repos) => repos.merchants.insert(merchant('f'.repeat(22)))),
  ]);
  assert.equal(a?.status, 'fulfilled');
  assert.equal(b?.status, 'rejected');
  assert.match(String((b as PromiseRejectedResult).reason), /UNIQUE/);
  assert.equal(c?.status, 'fulfilled');
  assert.ok(await database.uow.read.merchants.get('f'.repeat(22)));
});
