import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCrashTest } from '../chaos/crash.ts';
import { assertNothingBroken, describe } from '../chaos/verdict.ts';
import { freePort } from '../support/processes.ts';

// RELIABILITY.md R3, the short run on SQLite (the long ones: npm run test:chaos; PostgreSQL's:
// chaos.postgres.process.test.ts). The server is a real process killed with SIGKILL under a load
// of creates and pays with idempotency keys.

test('twenty SIGKILLs under load lose no acknowledged write, duplicate nothing and answer every retry truthfully', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-chaos-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const report = await runCrashTest({
    databaseUrl: `sqlite:${join(dir, 'cobro.db')}`,
    port: await freePort(),
    kills: 20,
    killEveryMs: [1_000, 3_000],
  });
  t.diagnostic(describe(report));
  assertNothingBroken(report, 20);
  assert.deepEqual(report.integrity, Array(20).fill('ok'), 'PRAGMA integrity_check after each kill');
});
