import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { CrashReport } from '../chaos/crash.ts';
import { p99, runCrashTest } from '../chaos/crash.ts';
import { postgresBin, throwawayCluster } from '../support/pg-cluster.ts';
import { freePort } from '../support/processes.ts';

// RELIABILITY.md R3, the short runs (the long ones: npm run test:chaos). The server is a real
// process killed with SIGKILL under a load of creates and pays with idempotency keys; on
// PostgreSQL the database server is crashed too, on a cluster of the test's own.

function describe(report: CrashReport): string {
  const recovery = { ...report.cardRecovery, stillOpen: report.cardRecovery.stillOpen.length };
  return [
    `kills ${report.kills}`,
    `operations ${JSON.stringify(report.operations)}`,
    `card pays answered OPENED after a kill ${report.openedAfterCrash}, then ${JSON.stringify(recovery)}`,
    `restart-to-ready p99 ${Math.round(p99(report.restartToReadyMs))} ms`,
    `database outages ${JSON.stringify(report.outages)}`,
    `5xx answers ${JSON.stringify(report.serverErrors)}`,
    `keys left in flight and served after their lock ${report.lapsedKeysServed}`,
  ].join('; ');
}

/** What every run must show, whatever the database. */
function assertNothingBroken(report: CrashReport, kills: number): void {
  assert.equal(report.kills, kills);
  assert.ok(report.operations.ok > 100, `only ${report.operations.ok} operations were acknowledged`);
  assert.ok(report.operations.retriedAfterUnknown > 0, 'some operations were cut by a kill and retried');
  assert.deepEqual(report.lost, [], 'acknowledged writes lost');
  assert.deepEqual(report.duplicates, [], 'two objects for one idempotency key, or a checkout paid twice');
  assert.deepEqual(report.wrongAnswers, [], 'answers that contradict what happened');
  assert.deepEqual(report.backwards, [], 'a status that went backwards in a read');
  assert.deepEqual(report.missingWebhooks, [], 'acknowledged payments without a delivered, signed webhook');
  assert.equal(report.badSignatures, 0);
  assert.equal(report.serverErrors['500'], undefined, 'a 500 answer: a crash or an outage may only give 503');
  assert.equal(report.stuckKeys, 0, 'idempotency keys a retry cannot use after their lock time');
  assert.equal(report.operations.unresolved, 0, 'operations that never got a definite answer');
  assert.deepEqual(report.cardRecovery.stillOpen, [], 'card charges cut by a kill and never settled');
  assert.deepEqual(report.chargedNotPaid, [], 'cards charged for a payment that is not CLOSED');
}

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

test('[postgres] ten SIGKILLs of Cobro and five crashes of the database server under load: nothing lost, 503 on /ready while the database is down, recovered without a restart', {
  skip: postgresBin() ? false : 'needs PostgreSQL binaries (Debian postgresql)',
}, async (t) => {
  const cluster = await throwawayCluster();
  t.after(() => cluster.destroy());
  const report = await runCrashTest({
    databaseUrl: cluster.url,
    port: await freePort(),
    kills: 10,
    killEveryMs: [1_000, 3_000],
    databaseServer: cluster,
    databaseOutages: 5,
  });
  t.diagnostic(describe(report));
  assertNothingBroken(report, 10);
  assert.equal(report.outages.length, 5);
  for (const outage of report.outages) {
    assert.ok(outage.readyWhileDown.length > 0, 'asked /ready while the database was down');
    assert.ok(
      outage.readyWhileDown.every((status) => status === 503),
      `/ready answered ${outage.readyWhileDown.join(',')} while the database was down`,
    );
  }
});
