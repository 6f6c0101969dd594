import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase, WAL_CHECKPOINT_PAGES } from '../../src/db/database.ts';

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

test('a unit that changed many pages and then failed rolls back alone, over pages its neighbours changed first', async (t) => {
  const { database, url } = await withSqlite(t);
  // Long names, so each unit changes far more than SQLite's 64 KiB of savepoint journal kept
  // in memory by default (the writer keeps all of it in memory: see writerSettings).
  const named = (prefix: string, i: number) => ({
    ...merchant(`${prefix}${String(i).padStart(21, '0')}`),
    name: `${prefix} ${i} ${'x'.repeat(2_000)}`,
  });
  const unit = (prefix: string, count: number, fail: boolean) =>
    database.uow.transaction(async (repos) => {
      for (let i = 0; i < count; i++) {
        await repos.merchants.insert(named(prefix, i));
      }
      if (fail) {
        throw new Error(`unit ${prefix} changed its mind`);
      }
      return count;
    });
  const [before, failed, after] = await Promise.allSettled([
    unit('a', 300, false),
    unit('b', 600, true),
    unit('c', 300, false),
  ]);
  assert.deepEqual(before, { status: 'fulfilled', value: 300 });
  assert.equal(failed?.status, 'rejected');
  assert.deepEqual(after, { status: 'fulfilled', value: 300 });
  const other = await openDatabase({ url });
  try {
    assert.equal((await other.uow.read.merchants.get(named('a', 299).id))?.name, named('a', 299).name);
    assert.equal(await other.uow.read.merchants.get(named('b', 0).id), undefined);
    assert.equal((await other.uow.read.merchants.get(named('c', 0).id))?.name, named('c', 0).name);
  } finally {
    await other.close();
  }
});

test('the WAL is copied back into the database file as it grows, so it stays within about 4,000 pages', async (t) => {
  const { database, url } = await withSqlite(t);
  const path = url.slice('sqlite:'.length);
  // About 40 MB in commits of about 400 KB: ten times what one checkpoint holds.
  for (let batch = 0; batch < 100; batch++) {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        database.uow.transaction((repos) =>
          repos.merchants.insert({
            ...merchant(`w${String(batch * 20 + i).padStart(21, '0')}`),
            name: 'y'.repeat(20_000),
          }),
        ),
      ),
    );
  }
  const pageBytes = 4096 + 24;
  const walPages = statSync(`${path}-wal`).size / pageBytes;
  assert.ok(walPages <= WAL_CHECKPOINT_PAGES + 200, `the WAL holds ${Math.round(walPages)} pages`);
  assert.ok(statSync(path).size > 30_000_000, `the database file holds ${statSync(path).size} bytes`);
});
