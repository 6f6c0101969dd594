#!/usr/bin/env node
// Import cycles and layer arrows in src/: reads every import/export-from statement (type-only
// ones included, since a type cycle is still two files that cannot be read apart), resolves the
// relative .ts paths, and exits non-zero listing each cycle and each arrow the wrong way.
// Usage: node scripts/check-cycles.mjs [root]   (root defaults to src/ beside this script)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const root = resolve(process.argv[2] ?? join(repo, 'src'));

/** Which src/ folders each layer must not import (paths relative to src/, without a slash). */
const OUTER = ['server', 'jobs', 'cli', 'wiring'];
const LAYER_RULES = [
  { from: 'config', allowOnly: ['config'] },
  { from: 'domain', allowOnly: ['domain'] },
  { from: 'db', forbid: ['providers', 'http', 'web', ...OUTER] },
  { from: 'providers', forbid: ['db', 'http', 'web', ...OUTER] },
  // The API and the pages are siblings: what both need lives above them (services.ts) or below.
  { from: 'http', forbid: ['web', 'db', 'providers', ...OUTER] },
  { from: 'web', forbid: ['http', 'db', 'providers', ...OUTER] },
  { from: 'server', forbid: ['db', 'providers', 'jobs', 'cli', 'wiring'] },
  { from: 'jobs', forbid: ['http', 'web', 'server', 'cli', 'wiring'] },
];

function listTs(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      return listTs(path);
    }
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

// `import … from '…'`, `export … from '…'` (possibly over several lines) and `import '…'`,
// each at the start of a line so template text that mentions imports is not read as one.
const IMPORT =
  /^[ \t]*(?:import|export)\b(?:[^;'"]|'[^']*'(?!;)|"[^"]*"(?!;))*?\bfrom[ \t]*['"]([^'"]+)['"]|^[ \t]*import[ \t]*['"]([^'"]+)['"]/gm;

function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const spec = match[1] ?? match[2];
    if (!spec.startsWith('.')) {
      continue;
    }
    targets.add(resolve(dirname(file), spec));
  }
  return [...targets];
}

const files = listTs(root);
const known = new Set(files);
const graph = new Map(files.map((file) => [file, importsOf(file).filter((target) => known.has(target))]));
const name = (file) => relative(repo, file).split(sep).join('/');

// Tarjan's strongly connected components: every cycle lies inside one component of two or
// more files (or a file importing itself).
function components() {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (file) => {
    index.set(file, next);
    low.set(file, next);
    next += 1;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file)) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file), index.get(target)));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      if (component.length > 1 || graph.get(file).includes(file)) {
        found.push(component);
      }
    }
  };
  for (const file of files) {
    if (!index.has(file)) {
      visit(file);
    }
  }
  return found;
}

/** The shortest way back to `start` inside its component, as a list of files. */
function shortestCycle(start, members) {
  const previous = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const target of graph.get(file)) {
      if (!members.has(target)) {
        continue;
      }
      if (target === start) {
        const path = [file];
        while (previous.get(path[0]) !== null) {
          path.unshift(previous.get(path[0]));
        }
        return [...path, start];
      }
      if (!previous.has(target)) {
        previous.set(target, file);
        queue.push(target);
      }
    }
  }
  return [start, start];
}

/** Every cycle once: for each file of a component, the shortest cycle through it, deduplicated. */
function cyclesIn(component) {
  const members = new Set(component);
  const seen = new Set();
  const cycles = [];
  for (const file of [...component].sort()) {
    const cycle = shortestCycle(file, members);
    const ring = cycle.slice(0, -1);
    const first = ring.indexOf([...ring].sort()[0]);
    const key = [...ring.slice(first), ...ring.slice(0, first)].join(' ');
    if (seen.has(key)) {
      continue;
    }
    seen.add(key);
    cycles.push(cycle);
  }
  return cycles;
}

const layerOf = (file) => relative(join(repo, 'src'), file).split(sep)[0];

function wrongArrows() {
  const found = [];
  for (const [file, targets] of graph) {
    const rule = LAYER_RULES.find((candidate) => candidate.from === layerOf(file));
    if (!rule) {
      continue;
    }
    for (const target of targets) {
      const layer = layerOf(target);
      const allowed = rule.allowOnly ? rule.allowOnly.includes(layer) : !rule.forbid.includes(layer);
      if (!allowed) {
        found.push(`${name(file)} -> ${name(target)} (src/${rule.from} may not import src/${layer})`);
      }
    }
  }
  return found.sort();
}

const cycles = components().flatMap(cyclesIn);
const arrows = wrongArrows();
for (const cycle of cycles) {
  console.error(`cycle: ${cycle.map(name).join(' -> ')}`);
}
for (const arrow of arrows) {
  console.error(`layer: ${arrow}`);
}
if (cycles.length > 0 || arrows.length > 0) {
  console.error(
    `${cycles.length} import cycle(s), ${arrows.length} import(s) across a layer rule in ${files.length} files`,
  );
  process.exit(1);
}
console.log(`no import cycles and no layer-rule imports in ${files.length} files under ${name(root) || '.'}`);
