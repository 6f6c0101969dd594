import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCrashTest } from '../chaos/crash.ts';
import { assertNothingBroken, describe } from '../chaos/verdict.ts';
import { postgresBin, throwawayCluster } from '../support/pg-cluster.ts';
import { freePort } from '../support/processes.ts';

// RELIABILITY.md R3 on PostgreSQL, the short run: Cobro killed with SIGKILL under load, and the
// database server itself crashed, on a cluster of the test's own (a file of its own so that the
// two crash tests run side by side and each stays within the per-file time limit).

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
