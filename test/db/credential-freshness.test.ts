import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { LISTENER_APPLICATION_NAME, PostgresKeyRevocationListener } from '../../src/db/credential-freshness.ts';
import type { OpenDatabase } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/database.ts';
import { MerchantService } from '../../src/domain/merchants/merchant.service.ts';
import { systemClock } from '../../src/domain/shared/clock.ts';
import { AppError } from '../../src/domain/shared/errors.ts';

// How the key cache learns about changes other processes commit (src/db/credential-freshness.ts):
// SQLite's data_version on the writer connection, PostgreSQL's LISTEN connection.

const isUnauthorized = (error: unknown) => error instanceof AppError && error.code === 'UNAUTHORIZED';

async function until(what: string, check: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function open(t: TestContext, url: string): Promise<OpenDatabase> {
  const database = await openDatabase({ url, pgPoolSize: 2 });
  t.after(() => database.close());
  await database.migrate();
  return database;
}

test('SQLite: the version ignores this process’s own commits and changes when another connection commits', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-freshness-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'cobro.db');
  const database = await open(t, `sqlite:${path}`);
  const watch = await database.watchCredentials();
  const merchants = new MerchantService(database.uow, systemClock, watch);

  const before = watch.version();
  assert.notEqual(before, null);
  // Our own writes (all through the group-commit writer) must not drop the cache on every commit.
  const pair = await merchants.createMerchant('Own writes');
  await merchants.createKeyPair(pair.merchantId, 'live');
  assert.equal(watch.version(), before);

  // Another process (here: another connection) revokes the key: the next look sees it.
  await merchants.authenticate(pair.apiKey, pair.apiSecret);
  const other = new SqliteDatabase(path);
  t.after(() => other.close());
  other.prepare('update api_keys set revoked_at = 1 where key = ?').run(pair.apiKey);
  assert.notEqual(watch.version(), before);
  await assert.rejects(merchants.authenticate(pair.apiKey, pair.apiSecret), isUnauthorized);
});

/**
 * A PostgreSQL database of its own. `admin` is connected to it, outside the service's pool;
 * `root` to the server's default database (a database cannot refuse connections from within).
 */
async function freshPostgres(
  t: TestContext,
): Promise<{ url: string; name: string; admin: pg.Client; root: pg.Client }> {
  const base = process.env.TEST_DATABASE_URL ?? '';
  const name = `cobro_test_freshness_${process.pid}_${randomBytes(4).toString('hex')}`;
  const root = new pg.Client({ connectionString: base });
  await root.connect();
  await root.query(`create database ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  // Runs first (node:test runs `after` hooks in order), before the databases opened later are closed.
  t.after(async () => {
    await root.query(`alter database ${name} with allow_connections true`);
    await root.end();
    await admin.end();
  });
  return { url: url.toString(), name, admin, root };
}

async function dropPostgres(name: string): Promise<void> {
  const dropper = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await dropper.connect();
  await dropper.query(`drop database if exists ${name} with (force)`);
  await dropper.end();
}

describe('PostgreSQL key revocation listener', { skip: !process.env.TEST_DATABASE_URL }, () => {
  test('a revocation committed by another process reaches this process’s cache through LISTEN', async (t) => {
    const { url, name } = await freshPostgres(t);
    const here = await open(t, url);
    const elsewhere = await open(t, url);
    t.after(() => dropPostgres(name));
    const watch = await here.watchCredentials();
    assert.notEqual(watch.version(), null, 'LISTEN is live once watchCredentials resolves');
    const announced: (string | null)[] = [];
    watch.onRevoked((key) => void announced.push(key));
    const merchants = new MerchantService(here.uow, systemClock, watch);
    const pair = await merchants.createMerchant('Listened');
    await merchants.authenticate(pair.apiKey, pair.apiSecret);

    // The other process's service announces nothing of its own; the repository's pg_notify does it.
    const otherMerchants = new MerchantService(elsewhere.uow, systemClock, {
      version: () => null,
      onRevoked() {},
      confirmRevoked: async () => {},
    });
    await otherMerchants.revokeKey(pair.apiKey);
    await until('the notification', () => announced.length > 0);
    assert.deepEqual(announced, [pair.apiKey]);
    await assert.rejects(merchants.authenticate(pair.apiKey, pair.apiSecret), isUnauthorized);
  });

  test('losing the listening connection drops the cache, so a revocation made while it was down is seen', async (t) => {
    const { url, name, admin, root } = await freshPostgres(t);
    const database = await open(t, url);
    t.after(() => dropPostgres(name));
    const watch = await database.watchCredentials();
    const merchants = new MerchantService(database.uow, systemClock, watch);
    const revoked = await merchants.createMerchant('Revoked while down');
    const kept = await merchants.createMerchant('Kept');
    // 1. Both keys are in the cache.
    await merchants.authenticate(revoked.apiKey, revoked.apiSecret);
    await merchants.authenticate(kept.apiKey, kept.apiSecret);
    const live = watch.version();
    assert.notEqual(live, null);

    // 2. The listening backend goes away, and cannot come back until allowed to.
    await root.query(`alter database ${name} with allow_connections false`);
    const terminated = await admin.query(
      `select pg_terminate_backend(pid) as ok from pg_stat_activity
        where datname = current_database() and application_name = 'cobro key revocations'`,
    );
    assert.equal(terminated.rowCount, 1);
    await until('the listener to notice', () => watch.version() === null);

    // 3. A revocation while it is down: its notification reaches no one.
    await admin.query(`update api_keys set revoked_at = 1 where key = $1`, [revoked.apiKey]);
    await admin.query(`select pg_notify('cobro_key_revoked', $1)`, [revoked.apiKey]);
    await assert.rejects(merchants.authenticate(revoked.apiKey, revoked.apiSecret), isUnauthorized);
    // Nothing is trusted while down: every request reads the key again (and still gets in).
    await merchants.authenticate(kept.apiKey, kept.apiSecret);
    assert.equal(watch.version(), null, 'still down: the test checked what it meant to');

    // 4. Back up: a new version, the revoked key stays refused, the other works.
    await root.query(`alter database ${name} with allow_connections true`);
    await until('the listener to reconnect', () => watch.version() !== null);
    assert.notEqual(watch.version(), live);
    await assert.rejects(merchants.authenticate(revoked.apiKey, revoked.apiSecret), isUnauthorized);
    assert.equal((await merchants.authenticate(kept.apiKey, kept.apiSecret)).merchantId, kept.merchantId);
  });

  test('a key read before the listener dropped is not trusted after it reconnects', async (t) => {
    const { url, name, admin } = await freshPostgres(t);
    const database = await open(t, url);
    t.after(() => dropPostgres(name));
    const watch = await database.watchCredentials();
    const merchants = new MerchantService(database.uow, systemClock, watch);
    const pair = await merchants.createMerchant('Cached across a reconnect');
    await merchants.authenticate(pair.apiKey, pair.apiSecret);
    const live = watch.version();

    // Revoked without a notification (as if it had been sent while the listener was away), then
    // the listener drops and comes back before the next request.
    await admin.query(`update api_keys set revoked_at = 1 where key = $1`, [pair.apiKey]);
    await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'cobro key revocations'`,
    );
    await until('the listener to come back', () => watch.version() !== null && watch.version() !== live);
    await assert.rejects(merchants.authenticate(pair.apiKey, pair.apiSecret), isUnauthorized);
  });

  test('a revocation answers only once every other listening process has dropped the key', async (t) => {
    const { url, name } = await freshPostgres(t);
    const here = await open(t, url);
    const elsewhere = await open(t, url);
    t.after(() => dropPostgres(name));
    const merchants = new MerchantService(here.uow, systemClock, await here.watchCredentials());
    const otherMerchants = new MerchantService(elsewhere.uow, systemClock, await elsewhere.watchCredentials());
    for (let i = 0; i < 5; i++) {
      const pair = await merchants.createMerchant(`Confirmed ${i}`);
      await otherMerchants.authenticate(pair.apiKey, pair.apiSecret);
      await merchants.revokeKey(pair.apiKey);
      // Not a tick later: the other process already refuses it.
      await assert.rejects(otherMerchants.authenticate(pair.apiKey, pair.apiSecret), isUnauthorized);
    }
  });

  test('a listening process that never answers holds a revocation up for a bounded time only', async (t) => {
    const { url, name, admin } = await freshPostgres(t);
    const database = await open(t, url);
    // Listens under the service's name, but never answers.
    const mute = new pg.Client({ connectionString: url, application_name: LISTENER_APPLICATION_NAME });
    await mute.connect();
    t.after(() => mute.end());
    await mute.query('LISTEN cobro_key_revoked');
    const unconfirmed: number[] = [];
    const watch = new PostgresKeyRevocationListener(url, { onUnconfirmed: (n) => void unconfirmed.push(n) }, 300);
    t.after(() => watch.close());
    t.after(() => dropPostgres(name));
    await watch.start();
    const merchants = new MerchantService(database.uow, systemClock, watch);
    const pair = await merchants.createMerchant('Held up');

    const started = performance.now();
    await merchants.revokeKey(pair.apiKey);
    const took = performance.now() - started;
    assert.ok(took >= 300 && took < 5_000, `revocation took ${Math.round(took)} ms`);
    // The mute listener at least; on a loaded machine this process's own answer may miss the 300 ms too.
    assert.equal(unconfirmed.length, 1);
    assert.ok((unconfirmed[0] ?? 0) >= 1, `unconfirmed: ${unconfirmed}`);
    const row = await admin.query('select revoked_at from api_keys where key = $1', [pair.apiKey]);
    assert.notEqual(row.rows[0]?.revoked_at, null);
  });
});
