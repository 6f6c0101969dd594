import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// scripts/test.sh builds everything once for the whole run (the client package included).
let built = process.env.COBRO_DIST_BUILT === '1';

/**
 * Makes sure packages/sdk/dist/ is compiled from the package's sources as they are now (once per
 * test process): what an application that installs @cobro/sdk gets. The build replaces files
 * atomically, so test files building side by side are safe.
 */
export function ensureSdkBuilt(): void {
  if (!built) {
    execFileSync(process.execPath, ['scripts/build-sdk.mjs'], { cwd: ROOT, stdio: 'inherit' });
    built = true;
  }
}
