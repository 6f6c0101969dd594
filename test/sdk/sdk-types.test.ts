import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ensureSdkBuilt } from '../support/sdk-dist.ts';

/**
 * Programs written against the built package (packages/sdk/test-types/, importing `@cobro/sdk`
 * by name), compiled with the repository's TypeScript under `strict`, once with
 * `moduleResolution: nodenext` (Node, @types/node, no DOM) and once with `bundler` (DOM, no
 * Node types). Mistakes are compile errors: each is marked `@ts-expect-error`, and the same files
 * with the marks taken out must fail exactly on those lines.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DIR = join(ROOT, 'packages', 'sdk', 'test-types');
const TSC = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
const CONFIGS = { nodenext: ['usage.ts', 'node.ts'], bundler: ['usage.ts'] } as const;
const MARK = /^\s*\/\/ @ts-expect-error\b.*$/;

function tsc(project: string): { status: number | null; errors: string[]; output: string } {
  const run = spawnSync(process.execPath, [TSC, '-p', project, '--pretty', 'false'], { cwd: DIR, encoding: 'utf8' });
  const output = `${run.stdout}${run.stderr}`;
  return { status: run.status, errors: output.split('\n').filter((line) => /\): error TS\d+/.test(line)), output };
}

for (const [config, files] of Object.entries(CONFIGS)) {
  test(`the package compiles under strict with moduleResolution ${config}, and each marked mistake is a compile error`, () => {
    ensureSdkBuilt();
    const clean = tsc(join(DIR, `tsconfig.${config}.json`));
    assert.deepEqual(clean.errors, [], clean.output);
    assert.equal(clean.status, 0);

    // The marks taken out (lines kept in place): the errors must be on the marked lines, and only there.
    const copies: string[] = [];
    const expected: string[] = [];
    for (const file of files) {
      const copy = `.check-${process.pid}-${file}`;
      const lines = readFileSync(join(DIR, file), 'utf8').split('\n');
      lines.forEach((line, i) => {
        if (MARK.test(line)) {
          expected.push(`${copy}:${i + 2}`);
        }
      });
      writeFileSync(join(DIR, copy), lines.map((line) => (MARK.test(line) ? '//' : line)).join('\n'));
      copies.push(copy);
    }
    const project = `.check-${process.pid}-${config}.json`;
    writeFileSync(join(DIR, project), JSON.stringify({ extends: `./tsconfig.${config}.json`, files: copies }));
    try {
      const unmarked = tsc(join(DIR, project));
      assert.notEqual(unmarked.status, 0);
      const where = unmarked.errors.map((e) => {
        const m = /^(.+?)\((\d+),\d+\)/.exec(e);
        return `${m?.[1]}:${m?.[2]}`;
      });
      assert.deepEqual([...new Set(where)].sort(), expected.sort(), unmarked.errors.join('\n'));
      const text = unmarked.output;
      assert.match(text, /not assignable to parameter of type 'PathsWithMethod<paths, "get">'/, 'a wrong path');
      assert.match(text, /Types of property 'amount' are incompatible|'string' is not assignable to type 'number'/);
      assert.match(text, /Property 'type' is missing/, 'a missing required field');
    } finally {
      for (const file of [...copies, project]) {
        rmSync(join(DIR, file), { force: true });
      }
    }
  });
}
