import assert from 'node:assert/strict';
import type { CrashReport } from './crash.ts';
import { p99 } from './crash.ts';

/** The short crash tests' verdict (test/http/chaos*.process.test.ts): one line of figures, and the checks. */
export function describe(report: CrashReport): string {
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
export function assertNothingBroken(report: CrashReport, kills: number): void {
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
  assert.deepEqual(report.stuckKeys, [], 'idempotency keys a retry cannot use after their lock time');
  assert.equal(report.operations.unresolved, 0, 'operations that never got a definite answer');
  assert.deepEqual(report.cardRecovery.stillOpen, [], 'card charges cut by a kill and never settled');
  assert.deepEqual(report.chargedNotPaid, [], 'cards charged for a payment that is not CLOSED');
}
