import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { p99, runCrashTest } from '../chaos/crash.ts';
import { freePort } from '../support/processes.ts';

// RELIABILITY.md R3, the short run (the long ones: npm run test:chaos). The server is a real
// process killed with SIGKILL twenty times under a load of creates and pays with idempotency keys.

test('twenty SIGKILLs under load lose no acknowledged write, duplicate nothing and answer every retry truthfully', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-chaos-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const report = await runCrashTest({
    databaseUrl: `sqlite:${join(dir, 'cobro.db')}`,
    port: await freePort(),
    kills: 20,
    killEveryMs: [1_000, 3_000],
  });
  t.diagnostic(
    `kills ${report.kills}; operations ${JSON.stringify(report.operations)}; card pays answered OPENED after a kill ${report.openedAfterCrash}; restart-to-ready p99 ${Math.round(p99(report.restartToReadyMs))} ms`,
  );
  assert.equal(report.kills, 20);
  assert.ok(report.operations.ok > 100, `only ${report.operations.ok} operations were acknowledged`);
  assert.ok(report.operations.retriedAfterUnknown > 0, 'some operations were cut by a kill and retried');
  assert.deepEqual(report.lost, [], 'acknowledged writes lost');
  assert.deepEqual(report.duplicates, [], 'two objects for one idempotency key, or a checkout paid twice');
  assert.deepEqual(report.wrongAnswers, [], 'answers that contradict what happened');
  assert.deepEqual(report.backwards, [], 'a status that went backwards in a read');
  assert.deepEqual(report.integrity, Array(20).fill('ok'), 'PRAGMA integrity_check after each kill');
  assert.deepEqual(report.missingWebhooks, [], 'acknowledged payments without a delivered, signed webhook');
  assert.equal(report.badSignatures, 0);
  assert.equal(report.stuckKeys, 0, 'idempotency keys left in flight');
  assert.equal(report.operations.unresolved, 0, 'operations that never got a definite answer');
});
