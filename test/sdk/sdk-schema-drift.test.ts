import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The SDK's committed types (packages/sdk/src/schema.ts) are what openapi-typescript generates
 * from docs/openapi.json, and test/http/openapi.test.ts checks that document against what the
 * server serves: together, the client's types cannot drift from the server.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const GENERATE = join(ROOT, 'packages', 'sdk', 'scripts', 'generate-types.mjs');

function check(...args: string[]) {
  return spawnSync(process.execPath, [GENERATE, '--check', ...args], { cwd: ROOT, encoding: 'utf8' });
}

test('packages/sdk/src/schema.ts is what openapi-typescript generates from docs/openapi.json (run npm run sdk:types)', () => {
  const run = check();
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});

test('the check fails, naming the line, when the document has changed since the types were generated', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-sdk-drift-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const document = JSON.parse(readFileSync(join(ROOT, 'docs', 'openapi.json'), 'utf8'));
  document.components.schemas.PaymentOrder.properties.refund_reason = { type: 'string' };
  const changed = join(dir, 'openapi.json');
  writeFileSync(changed, JSON.stringify(document));
  const run = check('--document', changed);
  assert.equal(run.status, 1, run.stdout);
  assert.match(run.stderr, /schema\.ts is stale: first difference at line \d+/);
  assert.match(run.stderr, /refund_reason/);
});
