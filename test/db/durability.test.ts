import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { ConfigError, loadConfig } from '../../src/config/config.ts';
import { describeBackends } from '../support/test-app.ts';

// RELIABILITY.md R4 (promise G2): an acknowledged write survives power loss in the default
// configuration — SQLite in WAL with synchronous=FULL, PostgreSQL with synchronous_commit and
// fsync on — and an unsafe setting either refuses to start or says so once, loudly.

type LogLine = { level: number; msg: string };

/** A pino destination that keeps every line, parsed. */
function captureLogs(): { stream: DestinationStream; lines: LogLine[] } {
  const lines: LogLine[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      for (const line of String(chunk).split('\n')) {
        if (line.trim() !== '') {
          lines.push(JSON.parse(line) as LogLine);
        }
      }
      done();
    },
  });
  return { stream, lines };
}

const PINO_WARN = 40;

function durabilityWarnings(lines: readonly LogLine[]): LogLine[] {
  return lines.filter((l) => l.msg.includes('DURABILITY LOSS'));
}

describeBackends('Durability settings', (build, backend) => {
  if (backend === 'sqlite') {
    test('the running SQLite database is in WAL mode with synchronous=FULL (2)', async (t) => {
      const logs = captureLogs();
      const { cobro, sqlitePath } = await build(t, { logStream: logs.stream });
      assert.deepEqual(await cobro.database.durability(), { journal_mode: 'wal', synchronous: '2' });
      assert.ok(sqlitePath, 'the SQLite backend has a file');
      // WAL is a property of the file: another process opening it read-only sees it too.
      const reader = new SqliteDatabase(sqlitePath, { readonly: true, fileMustExist: true });
      try {
        assert.equal(reader.pragma('journal_mode', { simple: true }), 'wal');
      } finally {
        reader.close();
      }
      assert.deepEqual(durabilityWarnings(logs.lines), [], 'a safe configuration logs no durability warning');
    });

    test('SQLITE_SYNCHRONOUS=NORMAL starts but logs exactly one warning naming the DURABILITY LOSS', async (t) => {
      const logs = captureLogs();
      const { app, cobro, merchant } = await build(t, {
        env: { SQLITE_SYNCHRONOUS: 'NORMAL' },
        logStream: logs.stream,
      });
      assert.deepEqual(await cobro.database.durability(), { journal_mode: 'wal', synchronous: '1' });
      const res = await app.inject({ method: 'GET', url: '/v1/currencies', headers: merchant.authHeaders });
      assert.equal(res.statusCode, 200, res.body);
      const warnings = durabilityWarnings(logs.lines);
      assert.equal(warnings.length, 1, JSON.stringify(logs.lines));
      assert.equal(warnings[0]?.level, PINO_WARN, JSON.stringify(warnings[0]));
    });

    test('SQLITE_SYNCHRONOUS=EXTRA is at least as safe as FULL and logs no warning', async (t) => {
      const logs = captureLogs();
      const { cobro } = await build(t, { env: { SQLITE_SYNCHRONOUS: 'extra' }, logStream: logs.stream });
      assert.deepEqual(await cobro.database.durability(), { journal_mode: 'wal', synchronous: '3' });
      assert.deepEqual(durabilityWarnings(logs.lines), []);
    });
  } else {
    test('PostgreSQL runs with synchronous_commit=on and fsync=on', async (t) => {
      const logs = captureLogs();
      const { cobro } = await build(t, { logStream: logs.stream });
      assert.deepEqual(await cobro.database.durability(), { synchronous_commit: 'on', fsync: 'on' });
      const shown = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(cobro.database.db);
      assert.equal(shown.rows[0]?.synchronous_commit, 'on');
      const fsync = await sql<{ fsync: string }>`show fsync`.execute(cobro.database.db);
      assert.equal(fsync.rows[0]?.fsync, 'on');
      assert.deepEqual(durabilityWarnings(logs.lines), []);
    });

    test('a database whose default is synchronous_commit=off still gets on for the service’s connections', async (t) => {
      const first = await build(t);
      const current = await sql<{ name: string }>`select current_database() as name`.execute(first.cobro.database.db);
      const name = current.rows[0]?.name ?? assert.fail('no database name');
      await sql`alter database ${sql.id(name)} set synchronous_commit = off`.execute(first.cobro.database.db);
      try {
        // A plain new session sees the unsafe default…
        const url = new URL(process.env.TEST_DATABASE_URL ?? '');
        url.pathname = `/${name}`;
        const plain = new pg.Client({ connectionString: url.toString() });
        await plain.connect();
        try {
          const shown = await plain.query<{ synchronous_commit: string }>('show synchronous_commit');
          assert.equal(shown.rows[0]?.synchronous_commit, 'off');
        } finally {
          await plain.end();
        }
        // …but the service sets it on every connection it opens.
        const logs = captureLogs();
        const second = await build(t, { logStream: logs.stream });
        assert.deepEqual(await second.cobro.database.durability(), { synchronous_commit: 'on', fsync: 'on' });
        assert.deepEqual(durabilityWarnings(logs.lines), []);
      } finally {
        await sql`alter database ${sql.id(name)} reset synchronous_commit`.execute(first.cobro.database.db);
      }
    });
  }
});

test('an invalid SQLITE_SYNCHRONOUS refuses to start with a message naming the variable', () => {
  for (const value of ['OFF', '0', 'fast', 'FULL;DROP']) {
    assert.throws(
      () => loadConfig({ SQLITE_SYNCHRONOUS: value }),
      (error: unknown) =>
        error instanceof ConfigError && error.message.includes('SQLITE_SYNCHRONOUS') && error.message.includes(value),
      value,
    );
  }
  assert.equal(loadConfig({}).sqliteSynchronous, 'FULL', 'FULL is the default');
});
