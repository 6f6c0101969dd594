import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../src/db/schema.ts';
import type { Repositories } from '../../src/domain/repositories/repositories.ts';
import { ManualClock } from '../../src/domain/shared/clock.ts';
import type { UnitOfWork } from '../../src/domain/shared/unit-of-work.ts';
import type { Cobro } from '../../src/main.ts';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import type { Backend, TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/**
 * RELIABILITY.md R7, renewal exactly once: a thousand card subscriptions fall due in the same
 * minute; two schedulers bill them at the same time (two app instances on one database, as two
 * processes would be); one is killed part-way: cut off its database at once, whatever it is
 * doing (between a charge and its record, inside a transaction…), then its app is closed; a
 * restarted instance and the survivor run again; then the clock moves one period and all of it
 * happens again.
 *
 * The card network is one outside party for every instance: test mode's processor keeps its
 * records in the database, so every instance on it sees the same charges, as processes would
 * share a real processor.
 */

const DAY_MS = 86_400_000;
/** How far into each round the scheduler is killed (fraction of that round's renewals already closed). */
const KILL_AT = [0.23, 0.61];
const SUBSCRIPTIONS = 1000;
const REPORTS_DIR = fileURLToPath(new URL('../../reports/', import.meta.url));

function report(backend: Backend, line: Record<string, unknown>): void {
  mkdirSync(REPORTS_DIR, { recursive: true });
  appendFileSync(
    `${REPORTS_DIR}subscriptions-r7-${backend}.jsonl`,
    `${JSON.stringify({ at: new Date().toISOString(), backend, ...line })}\n`,
  );
}

/** Bounded concurrency for the set-up, so it does not take a request at a time. */
async function inBatches<T>(count: number, size: number, make: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let start = 0; start < count; start += size) {
    const batch = Array.from({ length: Math.min(size, count - start) }, (_, k) => make(start + k));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

type Figures = {
  /** CLOSED renewal orders per (subscription, period): must be exactly 1. */
  closedPerPeriod: Map<string, number>;
  /** Every renewal order opened, whatever its status (a second try would show here). */
  ordersOpened: number;
  rejected: number;
  /** Subscriptions that have not reached the expected number of paid periods. */
  missed: number;
  /** PAYMENT_ORDER.CLOSED events per (subscription, period). */
  closedEvents: Map<string, number>;
  /** Webhook deliveries queued for the renewal orders' events, per subscription. */
  deliveriesPerSubscription: Map<string, number>;
};

async function figures(db: Kysely<Database>, merchantId: string, periodsPaid: number): Promise<Figures> {
  const closed = await db
    .selectFrom('payment_orders')
    .select(['recurrent_payment_id', 'period_index', sql<string>`count(*)`.as('n')])
    .where('merchant_id', '=', merchantId)
    .where('period_attempt', 'is not', null)
    .where('status', '=', 'CLOSED')
    .groupBy(['recurrent_payment_id', 'period_index'])
    .execute();
  const all = await db
    .selectFrom('payment_orders')
    .select(['status', sql<string>`count(*)`.as('n')])
    .where('merchant_id', '=', merchantId)
    .where('period_attempt', 'is not', null)
    .groupBy('status')
    .execute();
  const behind = await db
    .selectFrom('recurrent_payments')
    .select(sql<string>`count(*)`.as('n'))
    .where('merchant_id', '=', merchantId)
    .where((eb) => eb.or([eb('periods_paid', '<', BigInt(periodsPaid)), eb('status', '!=', 'ACTIVE')]))
    .executeTakeFirstOrThrow();
  const events = await db
    .selectFrom('events')
    .innerJoin('payment_orders', 'payment_orders.id', 'events.entity_id')
    .select([
      'payment_orders.recurrent_payment_id as rec',
      'payment_orders.period_index as period',
      sql<string>`count(*)`.as('n'),
    ])
    .where('events.merchant_id', '=', merchantId)
    .where('events.event_type', '=', 'PAYMENT_ORDER.CLOSED')
    .where('payment_orders.period_attempt', 'is not', null)
    .groupBy(['payment_orders.recurrent_payment_id', 'payment_orders.period_index'])
    .execute();
  const deliveries = await db
    .selectFrom('webhook_deliveries')
    .innerJoin('events', 'events.id', 'webhook_deliveries.event_id')
    .innerJoin('payment_orders', 'payment_orders.id', 'events.entity_id')
    .select(['payment_orders.recurrent_payment_id as rec', sql<string>`count(*)`.as('n')])
    .where('webhook_deliveries.merchant_id', '=', merchantId)
    .where('payment_orders.period_attempt', 'is not', null)
    .groupBy('payment_orders.recurrent_payment_id')
    .execute();
  return {
    closedPerPeriod: new Map(closed.map((r) => [`${r.recurrent_payment_id}/${r.period_index}`, Number(r.n)])),
    ordersOpened: all.reduce((sum, r) => sum + Number(r.n), 0),
    rejected: Number(all.find((r) => r.status === 'REJECTED')?.n ?? 0),
    missed: Number(behind.n),
    closedEvents: new Map(events.map((r) => [`${r.rec}/${r.period}`, Number(r.n)])),
    deliveriesPerSubscription: new Map(deliveries.map((r) => [String(r.rec), Number(r.n)])),
  };
}

/**
 * Kills an instance's access to the database at once, as SIGKILL would: every later read or
 * transaction of its services fails. Closing the app alone is not enough on SQLite, where close
 * waits for the queued writes and so lets a running scheduler finish.
 */
function cutOff(cobro: Cobro): void {
  const killed = () => Promise.reject(new Error('scheduler killed'));
  const uow = cobro.database.uow as { -readonly [K in keyof UnitOfWork]: UnitOfWork[K] };
  uow.transaction = killed;
  uow.read = new Proxy(uow.read, {
    get: () => new Proxy({}, { get: () => killed }),
  }) as Repositories;
}

/** CLOSED renewal orders of the merchant, to stop a scheduler once it is well under way. */
async function closedRenewals(db: Kysely<Database>, merchantId: string): Promise<number> {
  const row = await db
    .selectFrom('payment_orders')
    .select(sql<string>`count(*)`.as('n'))
    .where('merchant_id', '=', merchantId)
    .where('period_attempt', 'is not', null)
    .where('status', '=', 'CLOSED')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describeBackends('subscription renewal exactly once (R7)', (build, backend) => {
  test(`${SUBSCRIPTIONS} card subscriptions due in one minute, billed by two schedulers with one stopped part-way, are charged once per period`, async (t) => {
    const started = Date.now();
    const clock = new ManualClock(new Date());
    const first = await build(t, { clock });
    const { merchant } = first;
    const databaseUrl = first.config.databaseUrl;
    /** Another instance on the same database, and so the same card network (a second process, or a restart). */
    const instance = (): Promise<TestApp> => build(t, { clock, databaseUrl });

    // 1. The set-up: N subscriptions made through the API over 50 s, so they fall due within one minute.
    const link = await createPaymentLink(first.app, merchant, {
      title: 'Daily paper',
      amount: 1.5,
      interval_type: 'DAY',
      interval_count: 30,
    });
    const spacing = Math.floor(50_000 / SUBSCRIPTIONS);
    await inBatches(SUBSCRIPTIONS, 25, async () => {
      clock.advance(spacing);
      const pref = await createPreference(first.app, merchant, {
        type: 'SUBSCRIPTION',
        payment_link_id: link.id,
        payment_method_types: ['CARD'],
        custom_urls: { status_changes_webhook: 'https://merchant.example/hooks/cobro?token=r7' },
      });
      const paid = await first.app.inject({
        method: 'POST',
        url: `/v1/test_helpers/checkout_preferences/${pref.id}/pay`,
        headers: merchant.authHeaders,
        payload: {},
      });
      assert.equal(paid.statusCode, 201, paid.body);
      assert.equal(paid.json().status, 'CLOSED', paid.body);
    });
    const setupMs = Date.now() - started;
    const dueDates = await first.cobro.database.db
      .selectFrom('recurrent_payments')
      .select([sql<string>`min(next_payment_date)`.as('lo'), sql<string>`max(next_payment_date)`.as('hi')])
      .where('merchant_id', '=', merchant.id)
      .executeTakeFirstOrThrow();
    const [lo, hi] = [Number(dueDates.lo), Number(dueDates.hi)];
    assert.ok(
      hi - lo < 60_000,
      `due within one minute: ${new Date(lo).toISOString()} to ${new Date(hi).toISOString()}`,
    );

    // 2. Two rounds: due now, then one period later. Each: two schedulers, one stopped part-way, a rerun.
    let survivor = await instance();
    let doomed = first;
    for (const round of [1, 2]) {
      clock.set(new Date(hi + (round - 1) * DAY_MS + 60_000));
      const roundStarted = Date.now();
      const db = survivor.cobro.database.db;
      const doomedRun = doomed.cobro.billing.runBilling().then(
        () => 'finished',
        (error: unknown) => `stopped: ${(error as Error).message.slice(0, 80)}`,
      );
      const survivorRun = survivor.cobro.billing.runBilling().then(
        () => 'finished',
        (error: unknown) => `stopped: ${(error as Error).message.slice(0, 80)}`,
      );
      // Kill one scheduler part-way through the round, whatever it is doing then.
      const target = (round - 1) * SUBSCRIPTIONS + Math.round(SUBSCRIPTIONS * (KILL_AT[round - 1] ?? 0.5));
      for (let i = 0; i < 3000 && (await closedRenewals(db, merchant.id)) < target; i++) {
        await sleep(2);
      }
      cutOff(doomed.cobro);
      const stoppedAt = await closedRenewals(db, merchant.id);
      await doomed.cobro.close();
      const outcomes = await Promise.all([doomedRun, survivorRun]);
      const leftOpen = await db
        .selectFrom('payment_orders')
        .select(sql<string>`count(*)`.as('n'))
        .where('merchant_id', '=', merchant.id)
        .where('period_attempt', 'is not', null)
        .where('status', '=', 'OPENED')
        .executeTakeFirstOrThrow();
      const pendingBeforeRerun = round * SUBSCRIPTIONS - (await closedRenewals(db, merchant.id));

      // The restarted instance and the survivor run again, concurrently: nothing is left behind.
      const restarted = await instance();
      await Promise.all([survivor.cobro.billing.runBilling(), restarted.cobro.billing.runBilling()]);
      const f = await figures(db, merchant.id, round + 1);
      const approved = (await survivor.cobro.providers.testProcessor.listCharges()).filter(
        (c) => c.status === 'approved',
      );
      const closedOrderRefs = await db
        .selectFrom('payment_orders')
        .select('provider_ref')
        .where('merchant_id', '=', merchant.id)
        .where('status', '=', 'CLOSED')
        .execute();
      const refs = new Set(closedOrderRefs.map((r) => r.provider_ref));
      const counts = [...f.closedPerPeriod.values()];
      const line = {
        round,
        subscriptions: SUBSCRIPTIONS,
        stopped_after_closed: stoppedAt - (round - 1) * SUBSCRIPTIONS,
        outcomes,
        renewals_left_opened_by_the_kill: Number(leftOpen.n),
        renewals_left_for_the_rerun: pendingBeforeRerun,
        renewal_orders_opened: f.ordersOpened,
        renewal_orders_rejected: f.rejected,
        periods_charged: f.closedPerPeriod.size,
        max_charges_per_period: Math.max(...counts),
        processor_approved_charges: approved.length,
        missed: f.missed,
        min_closed_events_per_period: Math.min(...f.closedEvents.values()),
        min_webhooks_per_subscription: Math.min(...f.deliveriesPerSubscription.values()),
        round_ms: Date.now() - roundStarted,
        setup_ms: setupMs,
      };
      report(backend, line);
      t.diagnostic(JSON.stringify(line));

      // Pass: one charge per (subscription, period), none missed after the catch-up, announced each time.
      assert.equal(f.closedPerPeriod.size, SUBSCRIPTIONS * round, JSON.stringify(line));
      assert.ok(
        counts.every((n) => n === 1),
        JSON.stringify(line),
      );
      assert.equal(f.missed, 0, JSON.stringify(line));
      assert.equal(f.rejected, 0, JSON.stringify(line));
      // The checkout's charge plus one per renewed period, each one a CLOSED order of this merchant.
      assert.equal(approved.length, SUBSCRIPTIONS * (1 + round), JSON.stringify(line));
      assert.ok(
        approved.every((c) => refs.has(c.chargeId)),
        'every approved charge is the charge of exactly one CLOSED order',
      );
      assert.equal(f.closedEvents.size, SUBSCRIPTIONS * round);
      assert.ok(
        [...f.closedEvents.values()].every((n) => n === 1),
        'one PAYMENT_ORDER.CLOSED per period',
      );
      assert.equal(f.deliveriesPerSubscription.size, SUBSCRIPTIONS);
      assert.ok(
        [...f.deliveriesPerSubscription.values()].every((n) => n >= 2 * round),
        'webhooks queued per renewal',
      );

      // The next round stops the other one.
      doomed = survivor;
      survivor = restarted;
    }
    t.diagnostic(`R7 [${backend}] total ${Date.now() - started} ms`);
  });
});
