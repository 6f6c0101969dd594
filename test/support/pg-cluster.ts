import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './processes.ts';

const run = promisify(execFile);

/** A PostgreSQL server of its own, in a temporary directory, that a test may stop and start. */
export type ThrowawayCluster = {
  url: string;
  /** `pg_ctl stop -m immediate`: the server dies as in a crash, with no checkpoint. */
  crash(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
};

/** Debian's PostgreSQL binaries (the newest installed), or null when there are none. */
export function postgresBin(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) {
    return null;
  }
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  const newest = versions.at(-1);
  return newest ? join(root, newest, 'bin') : null;
}

/**
 * PostgreSQL refuses to run as root: as root (CI), every command runs as the `postgres` user the
 * Debian package creates, and the directory is given to it.
 */
async function asServerUser(command: string, args: string[]): Promise<void> {
  if (process.getuid?.() === 0) {
    await run('runuser', ['-u', 'postgres', '--', command, ...args]);
  } else {
    await run(command, args);
  }
}

export async function throwawayCluster(): Promise<ThrowawayCluster> {
  const bin = postgresBin();
  if (!bin) {
    throw new Error('no PostgreSQL binaries under /usr/lib/postgresql');
  }
  const dir = mkdtempSync(join(tmpdir(), 'cobro-pg-'));
  const data = join(dir, 'data');
  mkdirSync(data, { mode: 0o700 });
  if (process.getuid?.() === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
    chownSync(data, Number(stdout.trim()), Number(gid.trim()));
  }
  const port = await freePort();
  await asServerUser(join(bin, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=on -c synchronous_commit=on`;
  const pgCtl = (args: string[]) => asServerUser(join(bin, 'pg_ctl'), ['-D', data, ...args]);
  const start = () => pgCtl(['-l', join(dir, 'server.log'), '-o', options, '-w', 'start']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    crash: () => pgCtl(['-m', 'immediate', '-w', 'stop']),
    start,
    async destroy() {
      await pgCtl(['-m', 'immediate', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
