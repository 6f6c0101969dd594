// Builds the client package (packages/sdk, published as @cobro/sdk) into packages/sdk/dist/:
// JavaScript and declarations, compiled by the repository's TypeScript from
// packages/sdk/tsconfig.json. Run by scripts/build.mjs before it bundles the command line,
// which imports the package through its workspace link (node_modules/@cobro/sdk).
//
// The compiler writes into a fresh directory beside dist/, and each file is then renamed into
// place, so a test or a bundle reading dist/ while another build runs never reads half a file.
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SDK_DIR = join(ROOT, 'packages', 'sdk');
const DIST = join(SDK_DIR, 'dist');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');

async function filesUnder(dir) {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath ?? entry.path, entry.name)));
}

export async function buildSdk() {
  const temporary = join(SDK_DIR, `.dist-${process.pid}-${Date.now()}`);
  try {
    execFileSync(process.execPath, [TSC, '-p', join(SDK_DIR, 'tsconfig.json'), '--outDir', temporary], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    const built = await filesUnder(temporary);
    for (const file of built) {
      await mkdir(join(DIST, file, '..'), { recursive: true });
      await rename(join(temporary, file), join(DIST, file));
    }
    // Outputs of sources that are gone.
    const current = new Set(built);
    for (const file of await filesUnder(DIST)) {
      if (!current.has(file)) {
        await rm(join(DIST, file), { force: true });
      }
    }
  } finally {
    await rm(temporary, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await buildSdk();
}
