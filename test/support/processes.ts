import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';

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

/** Waits until `check()` holds (polled every 25 ms), or fails naming `what` after `ms`. */
export async function until(what: string, check: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
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
 * The service as `npm start` runs it, in a real process on a free loopback port, with only the
 * environment given (nothing of the test's own); resolves once it says it is serving. Killed
 * at the end of the test if still running.
 */
export async function startCobroProcess(t: TestContext, env: Record<string, string>): Promise<CobroProcess> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), HOST: '127.0.0.1', ...env },
  });
  t.after(() => child.kill('SIGKILL'));
  let stdout = '';
  child.stdout?.on('data', (c: Buffer) => {
    stdout += c.toString('utf8');
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await until('the server to start', () => stdout.includes('Cobro is serving'), 60_000);
  return { child, port, exit, stdout: () => stdout };
}
