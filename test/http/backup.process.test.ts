import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import { cobroArgs } from '../support/dist.ts';
import { startCobroProcess } from '../support/processes.ts';

// `cobro backup --to FILE` beside a running, busy server, and the restore procedure of
// docs/operations.md, with real processes.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = `ck_test_backup${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_backup${randomBytes(16).toString('hex')}`;
const AUTH = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET, 'content-type': 'application/json' };

function cobroCli(args: string[], env: Record<string, string>) {
  return promisify(execFile)(process.execPath, cobroArgs('cobro', ...args), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    encoding: 'utf8',
    timeout: 240_000,
  });
}

test('a backup taken while the server is writing is consistent, holds every acknowledged write, and restores', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-backup-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const dbFile = join(dir, 'cobro.db');
  const env = {
    DATABASE_URL: `sqlite:${dbFile}`,
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    RATE_LIMIT_PER_SECOND: '1000000',
  };
  const server = await startCobroProcess(t, env);
  const base = `http://127.0.0.1:${server.port}`;

  // Writers that keep creating checkouts until told to stop, each remembering what was acknowledged.
  // In the order the server acknowledged them, so a prefix of it is "acknowledged before X".
  const acknowledged: string[] = [];
  let writing = true;
  const writer = async () => {
    while (writing) {
      const res = await fetch(`${base}/v1/checkout_preferences`, {
        method: 'POST',
        headers: AUTH,
        body: JSON.stringify({
          type: 'PAYMENT',
          origin: 'API',
          amount: 12.5,
          currency: 'USD',
          title: 'During the backup',
        }),
      });
      assert.equal(res.status, 201, await res.clone().text());
      acknowledged.push(String(((await res.json()) as { id: string }).id));
    }
  };
  const writers = Array.from({ length: 8 }, writer);
  while (acknowledged.length < 200) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }

  const backupFile = join(dir, 'backup.db');
  // Counted, not timed: a checkout acknowledged in the same millisecond the backup starts is
  // neither clearly before nor after it by the clock.
  const acknowledgedBefore = acknowledged.length;
  const { stdout } = await cobroCli(['backup', '--to', backupFile, '--json'], env);
  const during = acknowledged.length;
  writing = false;
  await Promise.all(writers);
  const report = JSON.parse(stdout) as { path: string; bytes: number; integrity_check: string };
  assert.equal(report.integrity_check, 'ok');
  assert.equal(report.path, backupFile);
  assert.ok(during > 200, 'the server was still answering writes while the backup ran');

  // The copy is one self-contained file, intact, with every checkout acknowledged before it began.
  assert.equal(existsSync(`${backupFile}-wal`), false);
  const copy = new SqliteDatabase(backupFile, { readonly: true });
  const ids = new Set((copy.prepare('select id from checkout_preferences').all() as { id: string }[]).map((r) => r.id));
  assert.equal(copy.pragma('integrity_check', { simple: true }), 'ok');
  assert.equal(copy.pragma('journal_mode', { simple: true }), 'delete');
  copy.close();
  const before = acknowledged.slice(0, acknowledgedBefore);
  assert.ok(before.length >= 200, 'at least 200 checkouts were acknowledged before the backup started');
  assert.deepEqual(
    before.filter((id) => !ids.has(id)),
    [],
    'every checkout acknowledged before the backup started is in it',
  );
  assert.ok(ids.size < acknowledged.length + 10, 'and nothing that was never acknowledged');

  // Restore, as docs/operations.md says: stop the server, put the copy in place of the file and
  // its -wal and -shm, start again.
  server.child.kill('SIGTERM');
  assert.equal(await server.exit, 0);
  for (const suffix of ['-wal', '-shm']) {
    rmSync(`${dbFile}${suffix}`, { force: true });
  }
  copyFileSync(backupFile, dbFile);
  const restored = await startCobroProcess(t, env);
  const sample = before[before.length - 1];
  assert.ok(sample);
  const res = await fetch(`http://127.0.0.1:${restored.port}/v1/checkout_preferences/${sample}`, { headers: AUTH });
  assert.equal(res.status, 200, await res.text());
  const after = await fetch(`http://127.0.0.1:${restored.port}/v1/checkout_preferences`, {
    method: 'POST',
    headers: AUTH,
    body: JSON.stringify({ type: 'PAYMENT', origin: 'API', amount: 1, currency: 'USD', title: 'After the restore' }),
  });
  assert.equal(after.status, 201, 'the restored database takes writes');
});

test('backup refuses a PostgreSQL database and a missing --to, naming what to use instead', async () => {
  await assert.rejects(
    cobroCli(['backup', '--to', '/tmp/never.db'], { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }),
    (e: { code?: number; stderr?: string }) => e.code === 2 && /pg_dump/.test(e.stderr ?? ''),
  );
  await assert.rejects(
    cobroCli(['backup'], { DATABASE_URL: 'sqlite:/tmp/never.db' }),
    (e: { code?: number; stderr?: string }) => e.code === 2 && /backup needs --to FILE/.test(e.stderr ?? ''),
  );
});
