import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { freePort } from '../support/processes.ts';
import { p99, runCrashTest } from './crash.ts';

/**
 * npm run test:chaos [-- --kills 100 --database sqlite|postgres]: the long crash test, printed
 * as a report (exit 1 when a promise is broken). PostgreSQL needs TEST_DATABASE_URL; the run
 * uses a database of its own there.
 */
const { values } = parseArgs({
  options: { kills: { type: 'string', default: '100' }, database: { type: 'string', default: 'sqlite' } },
});
const dir = mkdtempSync(join(tmpdir(), 'cobro-chaos-'));
let databaseUrl = `sqlite:${join(dir, 'cobro.db')}`;
let dropDatabase = async () => {};
if (values.database === 'postgres') {
  const { freshPostgresDatabase } = await import('../support/processes.ts');
  databaseUrl = await freshPostgresDatabase('cobro_chaos', (drop) => {
    dropDatabase = drop;
  });
}
try {
  const report = await runCrashTest({
    databaseUrl,
    port: await freePort(),
    kills: Number(values.kills),
    killEveryMs: [1_000, 5_000],
    log: (line) => console.log(line),
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
    report.stuckKeys +
    report.integrity.filter((r) => r !== 'ok').length;
  process.exitCode = broken === 0 ? 0 : 1;
} finally {
  await dropDatabase();
  rmSync(dir, { recursive: true, force: true });
}
