import { execFile, execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// scripts/test.sh builds once for the whole run and says so.
let built = process.env.COBRO_DIST_BUILT === '1';

/** The process roles production runs, compiled into dist/ (scripts/build.mjs). */
export type Entry = 'serve' | 'worker' | 'cobro';

/**
 * The node arguments that run `entry` the way production does: from dist/, compiled from the
 * sources as they are now (built once per test process; a build replaces files atomically, so
 * test files building side by side are safe). Run from the repository's root.
 */
export function cobroArgs(entry: Entry, ...args: string[]): string[] {
  if (!built) {
    execFileSync(process.execPath, ['scripts/build.mjs', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
  return [`dist/${entry}.js`, ...args];
}

/** Runs the compiled command line (`cobro …`) in its own process with only `env` (and PATH, HOME): its exit code and output. */
export async function runCobro(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, cobroArgs('cobro', ...args), {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}
