import assert from 'node:assert/strict';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { cobroArgs } from '../support/dist.ts';
import { freePort, freshPostgresDatabase, until } from '../support/processes.ts';

// `cobro keys revoke` runs as its own process and commits; servers that are already running,
// with the key in their cache, must refuse it on the very next request. Real processes only:
// the command line, the server (`node dist/serve.js`) and the database between them.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

const BASE_ENV = {
  PATH: process.env.PATH ?? '',
  HOME: process.env.HOME ?? '',
  // A fixed key, so no key file is written into the working tree (PostgreSQL keeps it in ./data).
  SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
  RATE_LIMIT_PER_SECOND: '100000',
  AUTH_FAILURES_PER_MINUTE: '100000',
  LOG_LEVEL: 'warn',
};

type Defer = (cleanup: () => void | Promise<void>) => void;

/** Cleanups run last-registered first when the test ends (node:test runs `t.after` hooks in order). */
function deferrer(t: TestContext): Defer {
  const cleanups: (() => void | Promise<void>)[] = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) {
      await cleanup();
    }
  });
  return (cleanup) => void cleanups.push(cleanup);
}

type Server = { url: string; stdout: () => string };

/** Starts `src/main.ts` on DATABASE_URL and waits until it serves; killed when the test ends. */
async function startServer(defer: Defer, databaseUrl: string): Promise<Server> {
  const port = await freePort();
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, cobroArgs('serve'), {
    cwd: ROOT,
    env: { ...BASE_ENV, PORT: String(port), HOST: '127.0.0.1', DATABASE_URL: databaseUrl },
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  defer(async () => {
    child.kill('SIGKILL');
    await exited;
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
  });
  // Generous: a loaded two-core machine has taken over a minute to start one.
  await until('the server to start', () => stdout.includes('Cobro is serving'), 240_000).catch((error: Error) => {
    throw new Error(`${error.message}; its stderr: ${stderr}`);
  });
  return { url: `http://127.0.0.1:${port}`, stdout: () => stdout };
}

/**
 * Runs `cobro …` as its own process on DATABASE_URL; resolves with its stdout, rejects if it
 * fails. `onOutput` sees the output as it comes, before the process has exited.
 */
function cli(databaseUrl: string, args: string[], onOutput: (stdout: string) => void = () => {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cobroArgs('cobro', ...args), {
      cwd: ROOT,
      env: { ...BASE_ENV, DATABASE_URL: databaseUrl },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => {
      stdout += c.toString('utf8');
      onOutput(stdout);
    });
    child.stderr.on('data', (c: Buffer) => {
      stderr += c.toString('utf8');
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`cobro ${args.join(' ')} exited ${code}: ${stderr}`)),
    );
  });
}

/** The demo merchant's key pair, printed once by a server's first start on an empty database. */
function demoKeys(server: Server): Record<string, string> {
  const key = /x-api-key\s+(ck_test_\S+)/.exec(server.stdout())?.[1];
  const secret = /x-api-secret\s+(cs_test_\S+)/.exec(server.stdout())?.[1];
  assert.ok(key && secret, `no demo keys in the server's output:\n${server.stdout()}`);
  return { 'x-api-key': key, 'x-api-secret': secret };
}

async function status(server: Server, headers: Record<string, string>): Promise<number> {
  const res = await fetch(`${server.url}/v1/currencies`, { headers });
  await res.arrayBuffer();
  return res.status;
}

type Answer = { sentAt: number; status: number };

/**
 * Keeps requesting with the key on every server until stopped, so each cache holds a record
 * read moments before the revocation (the cache keeps a record for seconds, which a slow
 * command-line start could otherwise outlast). Returns what each server answered, in order.
 */
function keepRequesting(servers: Server[], headers: Record<string, string>) {
  let stopped = false;
  const loops = servers.map(async (server) => {
    const answers: Answer[] = [];
    while (!stopped) {
      const sentAt = performance.now();
      answers.push({ sentAt, status: await status(server, headers) });
      await new Promise((r) => setTimeout(r, 10));
    }
    return answers;
  });
  return async () => {
    stopped = true;
    return Promise.all(loops);
  };
}

/**
 * Runs `keys revoke` while the servers keep answering the key, then asks each server once more.
 * Returns, per server, the statuses of the requests sent after the command reported the
 * revocation: it prints once its transaction has committed (and may take a while to exit after
 * that, longer than the cache keeps a record on a loaded machine), so each of them is a request
 * that came after the revocation.
 */
async function revokeThenAskAgain(
  databaseUrl: string,
  servers: Server[],
  headers: Record<string, string>,
): Promise<number[][]> {
  for (const server of servers) {
    // Warm each cache: the key works before it is revoked.
    assert.equal(await status(server, headers), 200);
    assert.equal(await status(server, headers), 200);
  }
  const stop = keepRequesting(servers, headers);
  let reportedAt = Number.POSITIVE_INFINITY;
  const output = await cli(databaseUrl, ['keys', 'revoke', headers['x-api-key'] ?? ''], (stdout) => {
    if (stdout.includes('revoked ck_test_')) {
      reportedAt = Math.min(reportedAt, performance.now());
    }
  });
  assert.match(output, /^revoked ck_test_/);
  const during = await stop();
  const after = await Promise.all(
    servers.map(async (server) => ({ sentAt: performance.now(), status: await status(server, headers) })),
  );
  return servers.map((_, i) => {
    const answers = [...(during[i] ?? []), ...(after[i] ? [after[i]] : [])];
    // Before the report a request may or may not see the revocation, but once refused, always refused.
    const firstRefusal = answers.findIndex((a) => a.status !== 200);
    assert.ok(
      answers.every((a, j) => a.status === (firstRefusal !== -1 && j >= firstRefusal ? 401 : 200)),
      `statuses while revoking: ${answers.map((a) => a.status).join(' ')}`,
    );
    return answers.filter((a) => a.sentAt > reportedAt).map((a) => a.status);
  });
}

/** Every request sent after the revocation was reported (there is at least the last one) was refused. */
function assertAllRefused(afterReport: number[] | undefined): void {
  assert.ok(afterReport && afterReport.length > 0, 'no request was sent after the revocation was reported');
  const counts: Record<number, number> = {};
  for (const code of afterReport) {
    counts[code] = (counts[code] ?? 0) + 1;
  }
  assert.deepEqual(
    [...new Set(afterReport)],
    [401],
    `statuses after the report (status: count): ${JSON.stringify(counts)}`,
  );
}

/** A PostgreSQL database of its own, dropped when the test ends (after its servers are killed). */
function freshPostgres(defer: Defer): Promise<string> {
  return freshPostgresDatabase('cobro_test_revoke', defer);
}

function freshSqlite(defer: Defer): string {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-revoke-'));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  return `sqlite:${join(dir, 'cobro.db')}`;
}

const backends = process.env.TEST_DATABASE_URL ? (['sqlite', 'postgres'] as const) : (['sqlite'] as const);

const fresh = (backend: 'sqlite' | 'postgres', defer: Defer) =>
  backend === 'sqlite' ? Promise.resolve(freshSqlite(defer)) : freshPostgres(defer);

// The tests share nothing (each has its own database and ports), and nearly all their time is
// processes starting up: run them side by side.
describe('key revocation across processes', { concurrency: true }, () => {
  for (const backend of backends) {
    test(`[${backend}] a key revoked with \`cobro keys revoke\` is refused by a running server on the very next request`, async (t) => {
      const defer = deferrer(t);
      const databaseUrl = await fresh(backend, defer);
      const server = await startServer(defer, databaseUrl);
      const headers = demoKeys(server);
      const [afterReport] = await revokeThenAskAgain(databaseUrl, [server], headers);
      assertAllRefused(afterReport);
    });
  }

  test('[postgres] two servers on one database both refuse a revoked key on the very next request', {
    skip: !process.env.TEST_DATABASE_URL,
  }, async (t) => {
    const defer = deferrer(t);
    const databaseUrl = await freshPostgres(defer);
    // One after the other: the first start migrates and creates the demo merchant.
    const first = await startServer(defer, databaseUrl);
    const second = await startServer(defer, databaseUrl);
    const headers = demoKeys(first);
    const [onFirst, onSecond] = await revokeThenAskAgain(databaseUrl, [first, second], headers);
    assertAllRefused(onFirst);
    assertAllRefused(onSecond);
  });
});
