import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

// The service as `npm start` runs it: a real process, its stdout, its signals.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

test('a quiet server writes its request log line within seconds, and stops cleanly on SIGTERM', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-process-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
    },
  });
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));

  await until('the server to start', () => stdout.includes('Cobro is serving'), 60_000);
  const res = await fetch(`http://127.0.0.1:${port}/health`, { headers: { 'x-request-id': 'quiet-health-check' } });
  assert.equal(res.status, 200);

  // One small line is far below the write buffer: it must still arrive, by the periodic flush.
  const requestLine = () =>
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; path?: string; status?: number })
      .find((line) => line.msg === 'request' && line.reqId === 'quiet-health-check');
  await until('the request log line', () => requestLine() !== undefined, 3_000);
  assert.deepEqual({ path: requestLine()?.path, status: requestLine()?.status }, { path: '/health', status: 200 });

  child.kill('SIGTERM');
  assert.equal(await exit, 0);
  assert.match(stdout, /shutting down/);
});
