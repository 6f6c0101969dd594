import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { ThrowawayCluster } from '../support/pg-cluster.ts';
import { throwawayCluster } from '../support/pg-cluster.ts';
import { freePort } from '../support/processes.ts';
import { p99, runCrashTest } from './crash.ts';
import { renderFigures, writeFigures } from './figures.ts';

/**
 * npm run test:chaos [-- --kills 100 --database sqlite|postgres --outages 10 --no-figures]: the
 * long crash test, printed as a report (exit 1 when a promise is broken), its figures written
 * into docs/reliability.md (unless --no-figures). On PostgreSQL the run creates a cluster of its
 * own (Debian's binaries; as root it runs them as the postgres user) and also crashes the
 * database server `--outages` times.
 */
const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    database: { type: 'string', default: 'sqlite' },
    outages: { type: 'string', default: '10' },
    'no-figures': { type: 'boolean', default: false },
  },
});
const KILL_EVERY_MS: [number, number] = [1_000, 5_000];
const dir = mkdtempSync(join(tmpdir(), 'cobro-chaos-'));
let databaseUrl = `sqlite:${join(dir, 'cobro.db')}`;
let dropDatabase = async () => {};
let databaseServer: ThrowawayCluster | undefined;
if (values.database === 'postgres') {
  // A cluster of its own, so that the nemesis can crash the database server too.
  databaseServer = await throwawayCluster();
  databaseUrl = databaseServer.url;
  dropDatabase = () => databaseServer?.destroy() ?? Promise.resolve();
}
try {
  const report = await runCrashTest({
    databaseUrl,
    port: await freePort(),
    kills: Number(values.kills),
    killEveryMs: KILL_EVERY_MS,
    log: (line) => console.log(line),
    databaseServer,
    databaseOutages: Number(values.outages),
  });
  console.log(
    JSON.stringify(
      { ...report, restartToReadyMs: undefined, restartToReadyP99Ms: Math.round(p99(report.restartToReadyMs)) },
      null,
      2,
    ),
  );
  const broken =
    report.lost.length +
    report.duplicates.length +
    report.wrongAnswers.length +
    report.backwards.length +
    report.missingWebhooks.length +
    report.badSignatures +
    report.stuckKeys.length +
    report.cardRecovery.stillOpen.length +
    report.chargedNotPaid.length +
    (report.serverErrors['500'] ?? 0) +
    report.integrity.filter((r) => r !== 'ok').length +
    report.outages.filter((o) => o.readyWhileDown.some((status) => status !== 503)).length;
  process.exitCode = broken === 0 ? 0 : 1;
  if (!values['no-figures']) {
    const figures = renderFigures(report, {
      database: values.database,
      kills: Number(values.kills),
      outages: databaseServer ? Number(values.outages) : 0,
      killEveryMs: KILL_EVERY_MS,
      broken,
    });
    writeFigures(fileURLToPath(new URL('../../docs/reliability.md', import.meta.url)), values.database, figures);
    console.log(`\n${figures}\n\nwritten to docs/reliability.md`);
  }
} finally {
  await dropDatabase();
  rmSync(dir, { recursive: true, force: true });
}
