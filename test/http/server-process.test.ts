import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cobroArgs } from '../support/dist.ts';
import { startCobroProcess, until } from '../support/processes.ts';

// The service as `npm start` runs it: a real process, its stdout, its signals.

test('a quiet server writes its request log line within seconds, and stops cleanly on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-process-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const {
    child,
    port,
    exit,
    stdout: output,
  } = await startCobroProcess(t, {
    DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
  });
  const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { 'x-request-id': 'quiet-health-check' } });
  assert.equal(res.status, 200);

  // One small line is far below the write buffer: it must still arrive, by the periodic flush.
  const requestLine = () =>
    output()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; path?: string; status?: number })
      .find((line) => line.msg === 'request' && line.reqId === 'quiet-health-check');
  // The flush runs every second; the margin is for a loaded machine.
  await until('the request log line', () => requestLine() !== undefined, 15_000);
  assert.deepEqual({ path: requestLine()?.path, status: requestLine()?.status }, { path: '/health', status: 200 });

  child.kill('SIGTERM');
  assert.equal(await exit, 0);
  assert.match(output(), /shutting down/);
});

test('a first start prints an owner invitation to the dashboard, and the link opens its page in the running server', async (t) => {
  // The production path: a real process with the real clock and the operator's defaults.
  const dir = mkdtempSync(join(tmpdir(), 'cobro-process-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const { port, stdout: output } = await startCobroProcess(t, { DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}` });
  const stdout = output();
  const link = new RegExp(`(http://127\\.0\\.0\\.1:${port}/dashboard/invitations/[A-Za-z0-9_-]{43})\\n`).exec(
    stdout,
  )?.[1];
  assert.ok(link, stdout.replace(/^\{.*$/gm, ''));
  const page = await fetch(link);
  assert.equal(page.status, 200);
  assert.match(await page.text(), /owner@demo\.invalid/);
  const login = await fetch(`http://127.0.0.1:${port}/dashboard`, { redirect: 'manual' });
  assert.equal(login.status, 303);
});

test('on SQLite a second server on the same database is refused with a clear message, and after a SIGKILL a new one starts', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-process-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = { DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}` };
  const first = await startCobroProcess(t, env);

  // The second exits at once, naming the database and what to do, and never listens.
  const second = spawnSync(process.execPath, cobroArgs('serve'), {
    cwd: fileURLToPath(new URL('../../', import.meta.url)),
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    encoding: 'utf8',
    timeout: 240_000,
  });
  assert.equal(second.status, 1, second.stderr);
  assert.match(second.stderr, /another Cobro process is already serving the SQLite database .*cobro\.db/);
  assert.match(second.stderr, /use PostgreSQL to run several processes/);
  assert.equal((await fetch(`http://127.0.0.1:${first.port}/ready`)).status, 200, 'the first one serves on');

  // The command line's short commands still run beside the server.
  const cli = spawnSync(
    process.execPath,
    cobroArgs('cobro', 'merchant', 'create', '--name', 'Beside the server', '--json'),
    {
      cwd: fileURLToPath(new URL('../../', import.meta.url)),
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      encoding: 'utf8',
      timeout: 240_000,
    },
  );
  assert.equal(cli.status, 0, cli.stderr);

  // A process killed outright leaves no lock behind: the operating system releases it.
  first.child.kill('SIGKILL');
  await first.exit;
  const third = await startCobroProcess(t, env);
  assert.equal((await fetch(`http://127.0.0.1:${third.port}/ready`)).status, 200);
});
