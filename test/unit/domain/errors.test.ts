import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { ErrorCode } from '../../../src/domain/shared/errors.ts';
import { AppError, ERROR_CODES, statusFor } from '../../../src/domain/shared/errors.ts';

// CONVENTIONS.md §7: the codes are a closed union with an exhaustive code → status switch, and
// docs/errors.md catalogues every one of them; this test fails when the two disagree.

const CATALOGUE = readFileSync(new URL('../../../docs/errors.md', import.meta.url), 'utf8');

/** `| \`CODE\` | 400 | when |` rows of the summary table. */
function summaryTable(): Map<string, number> {
  const rows = new Map<string, number>();
  for (const m of CATALOGUE.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)) {
    assert.ok(!rows.has(m[1] ?? ''), `${m[1]} appears twice in the summary table`);
    rows.set(m[1] ?? '', Number(m[2]));
  }
  return rows;
}

/** `## \`CODE\` — 400` sections, each up to the next heading. */
function sections(): Map<string, { status: number; text: string }> {
  const found = new Map<string, { status: number; text: string }>();
  const parts = CATALOGUE.split(/^(?=## )/m);
  for (const part of parts) {
    const m = /^## `([A-Z_]+)` — (\d{3})\n/.exec(part);
    if (m) {
      assert.ok(!found.has(m[1] ?? ''), `${m[1]} has two sections`);
      found.set(m[1] ?? '', { status: Number(m[2]), text: part });
    }
  }
  return found;
}

test('docs/errors.md lists exactly the codes of ERROR_CODES, each with the status statusFor gives', () => {
  const table = summaryTable();
  assert.deepEqual([...table.keys()].sort(), [...ERROR_CODES].sort(), 'summary table codes');
  for (const code of ERROR_CODES) {
    assert.equal(table.get(code), statusFor(code), `${code} in the summary table`);
  }
});

test('every code has a section with its status, when it happens, an example body and what a client should do', () => {
  const found = sections();
  assert.deepEqual([...found.keys()].sort(), [...ERROR_CODES].sort(), 'sections');
  for (const code of ERROR_CODES) {
    const section = found.get(code) ?? assert.fail(code);
    assert.equal(section.status, statusFor(code), `## ${code} heading status`);
    assert.match(section.text, /\*\*When:\*\* \S/, `${code}: When`);
    assert.match(section.text, /\*\*What to do:\*\* \S/, `${code}: What to do`);
    const example = /```json\n(.+)\n```/.exec(section.text);
    assert.ok(example?.[1], `${code}: example body`);
    const body = JSON.parse(example[1]) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['code', 'messages'], `${code}: example is the error body`);
    assert.equal(body.code, code, `${code}: example code`);
    assert.ok(
      Array.isArray(body.messages) && body.messages.length > 0 && body.messages.every((m) => typeof m === 'string'),
      `${code}: example messages`,
    );
  }
});

test('ERROR_CODES has no duplicates and every code maps to a distinct 4xx or 5xx status', () => {
  assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length);
  const statuses = ERROR_CODES.map(statusFor);
  assert.equal(new Set(statuses).size, statuses.length, JSON.stringify(statuses));
  for (const status of statuses) {
    assert.ok(status >= 400 && status < 600, String(status));
  }
});

test('an AppError carries its code, the status of the code, its messages and extra headers', () => {
  for (const code of ERROR_CODES) {
    const error = new AppError(code, [`${code} happened`], { 'retry-after': '1' });
    assert.equal(error.code, code);
    assert.equal(error.status, statusFor(code as ErrorCode));
    assert.deepEqual(error.messages, [`${code} happened`]);
    assert.deepEqual(error.headers, { 'retry-after': '1' });
  }
  // The body always has at least one message.
  assert.deepEqual(new AppError('CONFLICT', []).messages, ['CONFLICT']);
});
