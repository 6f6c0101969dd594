/**
 * Renewals (issue: performance, re-based): 10,000 card subscriptions fall due at the same
 * instant and the billing job charges them. The service runs in this process on its real
 * database (SQLite with synchronous=FULL, or PostgreSQL), with test mode's card processor, and
 * the figure is the wall time from the first billing run to the last renewal CLOSED, with its
 * PAYMENT_ORDER.CLOSED event written. The subscriptions are made beforehand through the API (a
 * subscription checkout paid by card each), which is not timed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { ManualClock } from '../src/domain/shared/clock.ts';
import type { Backend } from '../test/support/app.ts';
import { buildServer } from '../test/support/app.ts';
import { createPaymentLink, createPreference } from '../test/support/builders.ts';

export const RENEWALS_START = '<!-- renewals rows: start -->';
export const RENEWALS_END = '<!-- renewals rows: end -->';

export type RenewalsRow = {
  backend: Backend;
  subscriptions: number;
  setupSeconds: number;
  billingSeconds: number;
  closed: number;
  closedEvents: number;
  billingRuns: number;
  /** CPU time of this process (the service) per renewal, during billing. */
  cobroCpuMicros: number;
  /** CPU time of the local PostgreSQL server's processes per renewal, during billing; null when not measurable. */
  databaseCpuMicros: number | null;
};

/**
 * User + system CPU seconds of every `postgres` process on this machine, from /proc (Linux, a
 * local server); null elsewhere. A backend that exits meanwhile takes its time with it, so this
 * is read while the pool's connections are open.
 */
function postgresCpuSeconds(): number | null {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^[0-9]+$/.test(pid)) {
        continue;
      }
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue;
      }
      const close = stat.lastIndexOf(')');
      if (stat.slice(stat.indexOf('(') + 1, close) !== 'postgres') {
        continue;
      }
      // After the command: state is field 3, utime and stime fields 14 and 15.
      const fields = stat.slice(close + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    }
    return ticks > 0 ? ticks / 100 : null;
  } catch {
    return null;
  }
}

export async function benchRenewals(
  backend: Backend,
  subscriptions: number,
  databaseUrl?: string,
): Promise<RenewalsRow> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const clock = new ManualClock(new Date());
    // buildServer, not buildTestApp: the test runner's async hooks (loaded with node:test) would
    // tax every promise of the run. The production pool size (the test apps use a smaller one).
    const ctx = await buildServer((fn) => cleanups.push(fn), backend, {
      clock,
      env: { PG_POOL_SIZE: '10' },
      ...(databaseUrl ? { databaseUrl } : {}),
    });
    const { app, merchant } = ctx;
    const setupStarted = performance.now();
    const link = await createPaymentLink(app, merchant, {
      title: 'Daily paper',
      amount: 1.5,
      interval_type: 'DAY',
      interval_count: 30,
    });
    for (let start = 0; start < subscriptions; start += 50) {
      await Promise.all(
        Array.from({ length: Math.min(50, subscriptions - start) }, async () => {
          const pref = await createPreference(app, merchant, {
            type: 'SUBSCRIPTION',
            payment_link_id: link.id,
            payment_method_types: ['CARD'],
          });
          const paid = await app.inject({
            method: 'POST',
            url: `/v1/test_helpers/checkout_preferences/${pref.id}/pay`,
            headers: merchant.authHeaders,
            payload: {},
          });
          if (paid.statusCode !== 201 || paid.json().status !== 'CLOSED') {
            throw new Error(`subscription checkout not paid: ${paid.statusCode} ${paid.body}`);
          }
        }),
      );
    }
    const setupSeconds = (performance.now() - setupStarted) / 1000;
    const db = ctx.cobro.database.db;
    const due = await db
      .selectFrom('recurrent_payments')
      .select(sql<string>`max(next_payment_date)`.as('hi'))
      .where('merchant_id', '=', merchant.id)
      .executeTakeFirstOrThrow();
    clock.set(new Date(Number(due.hi) + 60_000));

    const closedRenewals = async () =>
      Number(
        (
          await db
            .selectFrom('payment_orders')
            .select(sql<string>`count(*)`.as('n'))
            .where('merchant_id', '=', merchant.id)
            .where('period_attempt', 'is not', null)
            .where('status', '=', 'CLOSED')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const databaseBefore = backend === 'postgres' ? postgresCpuSeconds() : null;
    let runs = 0;
    let closed = 0;
    // Each run bills what is due (in pages); the job runs again until everything is charged.
    while (closed < subscriptions && runs < 100) {
      await ctx.cobro.billing.runBilling();
      runs++;
      closed = await closedRenewals();
    }
    const billingSeconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseAfter = databaseBefore === null ? null : postgresCpuSeconds();
    const events = await db
      .selectFrom('events')
      .innerJoin('payment_orders', 'payment_orders.id', 'events.entity_id')
      .select(sql<string>`count(*)`.as('n'))
      .where('events.event_type', '=', 'PAYMENT_ORDER.CLOSED')
      .where('payment_orders.period_attempt', 'is not', null)
      .where('payment_orders.merchant_id', '=', merchant.id)
      .executeTakeFirstOrThrow();
    return {
      backend,
      subscriptions,
      setupSeconds,
      billingSeconds,
      closed,
      closedEvents: Number(events.n),
      billingRuns: runs,
      cobroCpuMicros: (cpu.user + cpu.system) / subscriptions,
      databaseCpuMicros:
        databaseBefore === null || databaseAfter === null
          ? null
          : ((databaseAfter - databaseBefore) * 1e6) / subscriptions,
    };
  } finally {
    for (const fn of cleanups.reverse()) {
      await fn();
    }
  }
}

export function renderRenewalsSection(rows: RenewalsRow[], loadAverage: string): string {
  const lines = [
    RENEWALS_START,
    '## Renewals: card subscriptions due at once',
    '',
    `Measured ${new Date().toISOString()}, load average at the end ${loadAverage}. The service in the bench's process ` +
      "on its real database, test mode's card processor; the subscriptions are made beforehand through the API " +
      '(not timed); the time runs from the first billing run to the last renewal CLOSED. ' +
      'CPU per renewal: the service (this process), and the PostgreSQL server (all its processes, read from ' +
      '/proc; the server is local and shares the two cores). ' +
      '`BENCH_ONLY=renewals npm run bench` measures these rows alone and rewrites only this section.',
    '',
    '| backend | subscriptions due | renewals CLOSED | CLOSED events | billing runs | billing s | renewals/s | service CPU µs/renewal | database CPU µs/renewal | goal ≤ 20 s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    const ok = r.closed === r.subscriptions && r.closedEvents === r.subscriptions && r.billingSeconds <= 20;
    lines.push(
      `| ${r.backend} | ${r.subscriptions.toLocaleString('en-US')} | ${r.closed.toLocaleString('en-US')} | ${r.closedEvents.toLocaleString('en-US')} | ${r.billingRuns} | ${r.billingSeconds.toFixed(1)} | ${Math.round(r.closed / r.billingSeconds).toLocaleString('en-US')} | ${Math.round(r.cobroCpuMicros).toLocaleString('en-US')} | ${r.databaseCpuMicros === null ? '—' : Math.round(r.databaseCpuMicros).toLocaleString('en-US')} | ${ok ? '✅ pass' : '❌ FAIL'} |`,
    );
  }
  lines.push(RENEWALS_END);
  return lines.join('\n');
}
