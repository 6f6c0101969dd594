import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { cobroArgs } from './dist.ts';

/** A loopback port nobody listens on right now (for a server process the test starts). */
export function freePort(): Promise<number> {
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

/** Waits until `check()` holds (polled every 25 ms; it may be async), or fails naming `what` after `ms`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) {
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

export type CobroProcess = {
  child: ChildProcess;
  port: number;
  /** The exit code (null when killed by a signal). */
  exit: Promise<number | null>;
  /** All it has written to stdout so far. */
  stdout(): string;
};

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The service as `npm start` runs it (or `args`, e.g. the command line's `serve` or `worker`), in
 * a real process on a free loopback port, with only the environment given (nothing of the
 * test's own); resolves once it prints `ready` (by default, that it is serving). Killed
 * at the end of the test if still running.
 */
export async function startCobroProcess(
  t: TestContext,
  env: Record<string, string>,
  options: { args?: string[]; ready?: string } = {},
): Promise<CobroProcess> {
  // freePort's port is free when it answers, not when the child binds it: another test process
  // may take it in between. That start fails with EADDRINUSE and is tried again on a new port.
  for (let attempt = 1; attempt <= 3; attempt++) {
    const started = await startOnce(t, env, options);
    if (started !== 'address in use') {
      return started;
    }
  }
  throw new Error('the server found its port taken three times');
}

/** Generous: a loaded two-core machine has taken over a minute to start one server. */
const START_TIMEOUT_MS = 240_000;

async function startOnce(
  t: TestContext,
  env: Record<string, string>,
  options: { args?: string[]; ready?: string },
): Promise<CobroProcess | 'address in use'> {
  const port = await freePort();
  const child = spawn(process.execPath, options.args ?? cobroArgs('serve'), {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
  });
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  // Read, so that a child writing much to stderr never blocks on a full pipe; the tail explains a failed start.
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-4000);
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // 'close' comes after 'exit', once everything it printed has been read.
  let exited = false;
  child.on('close', () => {
    exited = true;
  });
  const ready = options.ready ?? 'Cobro is serving';
  await until(`"${ready}"`, () => exited || stdout.includes(ready), START_TIMEOUT_MS);
  if (!stdout.includes(ready)) {
    if (/EADDRINUSE/.test(stdout + stderr)) {
      return 'address in use';
    }
    throw new Error(`the server exited before it was ready (code ${await exit}):\n${stdout.slice(-2000)}${stderr}`);
  }
  return { child, port, exit, stdout: () => stdout };
}

/**
 * A PostgreSQL database of its own on TEST_DATABASE_URL's server; `defer` receives its drop,
 * to run once the processes using it are gone.
 */
export async function freshPostgresDatabase(
  prefix: string,
  defer: (cleanup: () => Promise<void>) => void,
): Promise<string> {
  const base = process.env.TEST_DATABASE_URL ?? '';
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  defer(async () => {
    const dropper = new pg.Client({ connectionString: base });
    await dropper.connect();
    await dropper.query(`drop database if exists ${name} with (force)`);
    await dropper.end();
  });
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}
