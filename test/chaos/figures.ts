import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import type { CrashReport } from './crash.ts';

/**
 * The figures of the last long crash run, written by `npm run test:chaos` into
 * docs/reliability.md between markers of their own (one block per database), so the page always
 * says what the last run measured and nobody copies numbers by hand.
 */
export function renderFigures(
  report: CrashReport,
  run: { database: string; kills: number; outages: number; killEveryMs: [number, number]; broken: number },
): string {
  const restarts = [...report.restartToReadyMs].sort((a, b) => a - b);
  const at = (p: number) =>
    Math.round(restarts[Math.min(restarts.length - 1, Math.ceil(restarts.length * p) - 1)] ?? 0);
  const serverErrors = Object.entries(report.serverErrors)
    .map(([status, n]) => `${n} × ${status}`)
    .join(', ');
  const lines = [
    `Last \`npm run test:chaos\` on ${run.database}: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ` +
      `${cpus().length} cores, load average at the end ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' / ')}; **${run.broken === 0 ? 'every check passed' : `${run.broken} broken promises`}**.`,
    '',
    '| figure | value |',
    '|---|---|',
    `| SIGKILLs of Cobro (${run.killEveryMs[0] / 1000}–${run.killEveryMs[1] / 1000} s apart) | ${report.kills} |`,
    ...(run.outages > 0
      ? [
          `| crashes of the database server (\`pg_ctl stop -m immediate\`) | ${report.outages.length}; \`/ready\` while down: ${[
            ...new Set(report.outages.flatMap((o) => o.readyWhileDown)),
          ].join(', ')}; ready again ${Math.min(...report.outages.map((o) => o.recoveredMs))}–${Math.max(
            ...report.outages.map((o) => o.recoveredMs),
          )} ms after the database |`,
        ]
      : []),
    `| acknowledged writes (creates and pays) | ${report.operations.ok} |`,
    `| definite refusals | ${report.operations.fail} |`,
    `| cut by a kill and retried with the same key | ${report.operations.retriedAfterUnknown} |`,
    `| lost | ${report.lost.length} |`,
    `| duplicated (two objects for a key, a checkout paid twice) | ${report.duplicates.length} |`,
    `| wrong answers | ${report.wrongAnswers.length} |`,
    `| statuses read going backwards | ${report.backwards.length} |`,
    ...(report.integrity.length > 0
      ? [
          `| \`PRAGMA integrity_check\` after each kill | ${report.integrity.filter((r) => r === 'ok').length} × ok of ${report.integrity.length} |`,
        ]
      : []),
    `| card pays answered \`OPENED\` after a kill → settled by the card sync | ${report.openedAfterCrash} → ${report.cardRecovery.closed} closed, ${report.cardRecovery.voided} voided, ${report.cardRecovery.stillOpen.length} still open |`,
    `| cards charged for a payment not \`CLOSED\` | ${report.chargedNotPaid.length} |`,
    `| \`PAYMENT_ORDER.CLOSED\` webhooks expected / delivered and verified / delivered more than once | ${report.webhooks.expected} / ${report.webhooks.delivered} / ${report.webhooks.duplicated} |`,
    `| badly signed deliveries | ${report.badSignatures} |`,
    `| 5xx answers | ${serverErrors || 'none'} |`,
    `| idempotency keys a retry could not use after their lock / left in flight but served | ${report.stuckKeys.length} / ${report.lapsedKeysServed} |`,
    `| restart to ready p50 / p99 / max | ${at(0.5)} / ${at(0.99)} / ${Math.round(restarts.at(-1) ?? 0)} ms |`,
  ];
  return lines.join('\n');
}

export function writeFigures(file: string, database: string, figures: string): void {
  const start = `<!-- crash figures: ${database} -->`;
  const end = `<!-- /crash figures: ${database} -->`;
  const current = readFileSync(file, 'utf8');
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const block = `${start}\n${figures}\n${end}`;
  writeFileSync(
    file,
    from !== -1 && to > from
      ? `${current.slice(0, from)}${block}${current.slice(to + end.length)}`
      : `${current.trimEnd()}\n\n${block}\n`,
  );
}
