// Compiles the service to plain JavaScript in dist/: what production runs (`npm start`,
// `node dist/serve.js`, `node dist/worker.js`, `node dist/cobro.js`). Starting from compiled
// code is what keeps a restart under two seconds: compiling the TypeScript sources at every
// start (tsx) costs about two seconds by itself. Plain JavaScript so that it runs before
// anything else is compiled; esbuild is the compiler tsx already uses.
//
// The dependencies are bundled too: resolving and reading some 1,500 module files was half of
// a start. Left outside: better-sqlite3 (a native addon), @fastify/swagger-ui (it serves files
// from its own directory), and optional packages nothing installs (pg-native). Bundled CommonJS
// code calls require() for Node's built-ins; the banner gives each output file one.
// Files that read their neighbours (the checkout and dashboard stylesheets and scripts) find
// them through import.meta.url: in the bundle that is rewritten to the source file's own
// address, relative to dist/, so dist/ must stay beside src/ (it is built in place).
//
// The client package (packages/sdk, @cobro/sdk) is built first (scripts/build-sdk.mjs): the command
// line's `listen` and `trigger` import it by its name, and the bundle takes it as installed,
// through the workspace link node_modules/@cobro/sdk and the package's exports, that is its
// packages/sdk/dist/. (tsconfig.json's `paths` point TypeScript and tsx at its sources instead,
// so checking types and running tests need no build.)
//
// With --if-changed nothing is built when dist/ is up to date (what `npm start` runs before
// the server): dist/.build-stamp holds a hash of the path, size and modification time of every
// input of the last build (each file esbuild read, every file under src/ and packages/sdk/src/,
// package.json, package-lock.json, the package's manifest and tsconfig, and the build scripts),
// so an unchanged tree costs one stat per input.
import { createHash } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { buildSdk } from './build-sdk.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist');
const STAMP = join(OUT, '.build-stamp');
const quiet = process.argv.includes('--quiet');

/** Inputs that are not modules esbuild reads, relative to the root. */
const FIXED_INPUTS = [
  'package.json',
  'package-lock.json',
  'scripts/build.mjs',
  'scripts/build-sdk.mjs',
  'packages/sdk/package.json',
  'packages/sdk/tsconfig.json',
];

async function filesUnder(dir) {
  const entries = await readdir(join(ROOT, dir), { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) =>
      relative(ROOT, join(entry.parentPath ?? entry.path, entry.name))
        .split('\\')
        .join('/'),
    );
}

/**
 * A hash of each input's path, size and modification time (a missing file counts as one), and
 * the newest of those times.
 */
async function inputsHash(modules) {
  const paths = [
    ...new Set([...modules, ...FIXED_INPUTS, ...(await filesUnder('src')), ...(await filesUnder('packages/sdk/src'))]),
  ].sort();
  const hash = createHash('sha256');
  let newest = 0;
  for (const path of paths) {
    const info = await stat(join(ROOT, path)).catch(() => null);
    hash.update(`${path}\0${info ? `${info.size}\0${info.mtimeMs}` : 'missing'}\n`);
    // The client package's dist/ is written by this build itself (from sources counted here).
    if (!path.startsWith('packages/sdk/dist/')) {
      newest = Math.max(newest, info?.mtimeMs ?? 0);
    }
  }
  return { hash: hash.digest('hex'), newest };
}

/** The stamp of the last build: the modules it read and the hash of all its inputs then. */
async function readStamp() {
  try {
    const stamp = JSON.parse(await readFile(STAMP, 'utf8'));
    return Array.isArray(stamp.modules) && typeof stamp.hash === 'string' ? stamp : null;
  } catch {
    return null;
  }
}

if (process.argv.includes('--if-changed')) {
  const stamp = await readStamp();
  if (stamp && stamp.hash === (await inputsHash(stamp.modules)).hash) {
    process.exit(0);
  }
}

/** Entry points, one per process role, named as operators run them. */
const entryPoints = {
  serve: 'src/serve.ts',
  worker: 'src/worker.ts',
  cobro: 'src/cli/cobro.ts',
};

/** `import.meta.url` in a source file → the address that file has beside dist/. */
const sourceAddress = {
  name: 'source-address',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/].*\.ts$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) {
        return undefined;
      }
      const fromDist = relative(OUT, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(fromDist)}, import.meta.url).href`),
        loader: 'ts',
      };
    });
  },
};

/** `@cobro/sdk` as Node resolves it from here (the workspace link), not through tsconfig.json's `paths`. */
const installedSdk = {
  name: 'installed-sdk',
  setup(b) {
    b.onResolve({ filter: /^@cobro\/sdk$/ }, () => ({ path: fileURLToPath(import.meta.resolve('@cobro/sdk')) }));
  },
};

const started = performance.now();
const startedAt = Date.now();
await rm(STAMP, { force: true });
await buildSdk();
const result = await build({
  absWorkingDir: ROOT,
  entryPoints,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: ['better-sqlite3', '@fastify/swagger-ui', 'pg-native'],
  banner: {
    js: "import { createRequire as __cobroCreateRequire } from 'node:module'; const require = __cobroCreateRequire(import.meta.url);",
  },
  outdir: OUT,
  // Chunks beside the entry points: every output file is then one level below the root, which
  // the source addresses above count on.
  chunkNames: 'chunk-[hash]',
  sourcemap: 'linked',
  write: false,
  metafile: true,
  logLevel: 'warning',
  plugins: [installedSdk, sourceAddress],
});

// Each file is replaced whole (written beside it, then renamed over it), and the chunks (named
// by their content's hash) before the entry points that import them, so a process starting
// while another build runs never reads half a build.
async function replace(file) {
  const current = await readFile(file.path).catch(() => null);
  if (current?.equals(file.contents)) {
    return;
  }
  await mkdir(dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}.tmp`;
  await writeFile(temporary, file.contents);
  await rename(temporary, file.path);
}
const isChunk = (file) => relative(OUT, file.path).startsWith('chunk-');
await Promise.all(result.outputFiles.filter(isChunk).map(replace));
await Promise.all(result.outputFiles.filter((file) => !isChunk(file)).map(replace));
// Chunks of earlier builds: no entry point imports them any more.
const current = new Set(result.outputFiles.map((file) => relative(OUT, file.path)));
for (const name of await readdir(OUT)) {
  if (/^chunk-[^.]+\.js(\.map)?$/.test(name) && !current.has(name)) {
    await rm(join(OUT, name), { force: true });
  }
}
// The modules the bundle was made of (the sources, and the dependencies an install changes).
// No stamp when an input changed while the build ran: the next --if-changed builds again.
const modules = Object.keys(result.metafile.inputs).filter((path) => !path.includes(':'));
const inputs = await inputsHash(modules);
if (inputs.newest < startedAt) {
  await writeFile(STAMP, JSON.stringify({ hash: inputs.hash, modules }));
}
if (!quiet) {
  process.stdout.write(`built dist/ in ${Math.round(performance.now() - started)} ms\n`);
}
