import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.ts';

// pg-pool's end() leaves a caller queued for a connection waiting forever; closing Cobro's
// PostgreSQL database must fail such a caller instead (src/db/closable-pool.ts).

const url = process.env.TEST_DATABASE_URL;

test('closing the PostgreSQL database fails the work still waiting for a connection, at once, instead of leaving it waiting forever', {
  skip: url ? false : 'TEST_DATABASE_URL is not set',
}, async () => {
  const database = await openDatabase({ url: url as string, pgPoolSize: 1 });
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let holding = () => {};
  const held = new Promise<void>((resolve) => {
    holding = resolve;
  });
  // A transaction holds the pool's only connection until the gate opens.
  const transaction = database.db.transaction().execute(async (trx) => {
    await sql`select 1`.execute(trx);
    holding();
    await gate;
  });
  await held;
  const queued = sql`select 1`.execute(database.db);
  const closing = database.close();
  const outcome = await Promise.race([
    queued.then(
      () => 'answered',
      (error: Error) => error.message,
    ),
    new Promise<string>((resolve) => setTimeout(() => resolve('still waiting after 5 s'), 5_000)),
  ]);
  assert.match(outcome, /closed while this was waiting for a connection/);
  // The transaction in progress is not cut short: it finishes, and only then does close() end.
  release();
  await transaction;
  await closing;
  await assert.rejects(sql`select 1`.execute(database.db));
});
