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
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = join(ROOT, 'dist');

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

const started = performance.now();
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
  logLevel: 'warning',
  plugins: [sourceAddress],
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
if (!process.argv.includes('--quiet')) {
  process.stdout.write(`built dist/ in ${Math.round(performance.now() - started)} ms\n`);
}
