import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

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
