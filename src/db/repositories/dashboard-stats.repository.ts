import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { utcDay } from '../../domain/dashboard/stats.figures.ts';
import type {
  ConversionDay,
  DayFigures,
  FigureRanges,
  PlanSubscriptionGroup,
  SealedDay,
  StatsScope,
  SubscriptionGroup,
} from '../../domain/dashboard/stats.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
import type { DashboardStatsRepository } from '../../domain/repositories/dashboard-stats.repository.ts';
import type { IntervalType } from '../../domain/subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../../domain/subscriptions/recurrent-payment.status.ts';
import type { Database } from '../schema.ts';

/**
 * A SUM or COUNT as the drivers return it: bigint from SQLite (safe-integer mode) and for
 * PostgreSQL's int8 (count, bigint / integer); text for PostgreSQL's numeric (sum of bigint);
 * null for a SUM over no rows.
 */
type Aggregate = bigint | string | number | null;

const big = (v: Aggregate): bigint => (v === null ? 0n : typeof v === 'bigint' ? v : BigInt(v));
const int = (v: Aggregate): number => Number(big(v));

// The UTC day of an epoch-ms column: integer division on both dialects (bigint / integer is
// bigint in PostgreSQL; integer / integer truncates in SQLite), exact for every positive time.
// Written exactly as in the index payment_orders_paid_stats, which is how both match it.
const closedDay = sql<Aggregate>`closed_at / 86400000`;

/**
 * The dashboard's aggregates, each one statement that the database answers from an index of
 * migration 0007 (see there) without visiting the table. Constants that decide which rows an
 * index holds are written into the SQL, not bound, so SQLite's planner can match the partial
 * indexes.
 */
export class KyselyDashboardStatsRepository implements DashboardStatsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async dayFigures(scope: StatsScope, ranges: FigureRanges): Promise<DayFigures> {
    // Up to four grouped index ranges in one statement, each row tagged with its figure (`k`). Each
    // part is the query it would be alone, so each still matches its index of migration 0007.
    // Renewal orders are the ones with a period_attempt (index payment_orders_renewal_stats). A
    // failed order is terminal, so updated_at is when it failed. An EXPIRED one whose
    // subscription had been cancelled before (by merchant or payer) was withdrawn, not failed;
    // the last try of a subscription cancelled because its retries ran out did fail.
    const m = scope.merchantId;
    const mode = scope.mode;
    const cur = scope.currency;
    const parts = [];
    if (ranges.payments) {
      const fromDay = BigInt(utcDay(ranges.payments.fromMs));
      const toDay = BigInt(utcDay(ranges.payments.toMs - 1));
      const from = BigInt(ranges.payments.fromMs);
      const to = BigInt(ranges.payments.toMs);
      parts.push(
        sql`select 'p' as k, ${closedDay} as day, payment_method_type as t, count(*) as n, sum(amount_minor) as v
      from payment_orders
      where merchant_id = ${m} and mode = ${mode} and currency = ${cur}
        and ${closedDay} >= ${fromDay} and ${closedDay} <= ${toDay}
        and closed_at >= ${from} and closed_at < ${to} and amount_minor > 0
      group by ${closedDay}, payment_method_type`,
        sql`select 'r' as k, refunded_at / 86400000 as day, cast(null as text) as t, count(*) as n, sum(amount_minor) as v
      from payment_orders
      where merchant_id = ${m} and mode = ${mode} and currency = ${cur}
        and refunded_at >= ${from} and refunded_at < ${to}
      group by refunded_at / 86400000`,
        sql`select 'f' as k, o.updated_at / 86400000 as day, cast(null as text) as t, count(*) as n, 0 as v
      from payment_orders o
      where o.period_attempt is not null
        and o.merchant_id = ${m} and o.mode = ${mode} and o.currency = ${cur}
        and o.status in ('REJECTED', 'EXPIRED') and o.updated_at >= ${from} and o.updated_at < ${to}
        and not (o.status = 'EXPIRED' and exists (
          select 1 from recurrent_payments r
          where r.id = o.recurrent_payment_id
            and r.canceled_at is not null
            and r.canceled_at <= o.updated_at
            and coalesce(r.deleted_by, '') <> 'retries_exhausted'))
      group by o.updated_at / 86400000`,
      );
    }
    if (ranges.checkouts) {
      parts.push(
        sql`select 'c' as k, created_at / 86400000 as day, cast(null as text) as t, count(*) as n,
        sum(case when status = 'PAID' then 1 else 0 end) as v
      from checkout_preferences
      where merchant_id = ${m} and mode = ${mode} and currency = ${cur}
        and created_at >= ${BigInt(ranges.checkouts.fromMs)} and created_at < ${BigInt(ranges.checkouts.toMs)}
      group by created_at / 86400000`,
      );
    }
    const result =
      parts.length === 0
        ? { rows: [] }
        : await sql<{ k: string; day: Aggregate; t: string | null; n: Aggregate; v: Aggregate }>`${sql.join(
            parts,
            sql` union all `,
          )}`.execute(this.db);
    const figures: DayFigures = { paid: [], refunds: [], conversion: [], failedRenewals: [] };
    for (const r of result.rows) {
      const day = int(r.day);
      if (r.k === 'p') {
        figures.paid.push({ day, type: r.t as PaymentMethodType, count: int(r.n), volumeMinor: big(r.v) });
      } else if (r.k === 'r') {
        figures.refunds.push({ day, count: int(r.n), amountMinor: big(r.v) });
      } else if (r.k === 'f') {
        figures.failedRenewals.push({ day, count: int(r.n) });
      } else {
        figures.conversion.push({ day, created: int(r.n), paid: int(r.v) });
      }
    }
    return figures;
  }

  async sealedDays(scope: StatsScope, fromDay: number, toDay: number): Promise<SealedDay[]> {
    // One statement: each day with its method rows (none on a day without payments).
    const rows = await this.db
      .selectFrom('dashboard_days as d')
      .leftJoin('dashboard_day_methods as m', (join) =>
        join
          .onRef('m.merchant_id', '=', 'd.merchant_id')
          .onRef('m.mode', '=', 'd.mode')
          .onRef('m.currency', '=', 'd.currency')
          .onRef('m.day', '=', 'd.day'),
      )
      .select([
        'd.day',
        'd.checkouts_created',
        'd.checkouts_paid',
        'd.refunds',
        'd.refunded_minor',
        'd.failed_renewals',
        'm.payment_method_type',
        'm.payments',
        'm.volume_minor',
      ])
      .where('d.merchant_id', '=', scope.merchantId)
      .where('d.mode', '=', scope.mode)
      .where('d.currency', '=', scope.currency)
      .where('d.day', '>=', BigInt(fromDay))
      .where('d.day', '<', BigInt(toDay))
      .execute();
    const byDay = new Map<number, SealedDay>();
    for (const r of rows) {
      const day = int(r.day);
      let sealed = byDay.get(day);
      if (!sealed) {
        sealed = {
          day,
          refunds: { day, count: int(r.refunds), amountMinor: big(r.refunded_minor) },
          conversion:
            r.checkouts_created === null
              ? null
              : { day, created: int(r.checkouts_created), paid: int(r.checkouts_paid) },
          failedRenewals: { day, count: int(r.failed_renewals) },
          paid: [],
        };
        byDay.set(day, sealed);
      }
      if (r.payment_method_type !== null) {
        sealed.paid.push({
          day,
          type: r.payment_method_type as PaymentMethodType,
          count: int(r.payments),
          volumeMinor: big(r.volume_minor),
        });
      }
    }
    return [...byDay.values()];
  }

  async saveSealedDays(scope: StatsScope, days: readonly SealedDay[], sealedAtMs: number): Promise<void> {
    const key = { merchant_id: scope.merchantId, mode: scope.mode, currency: scope.currency };
    // A few hundred rows at most (one range's days); batched to stay under SQLite's bound-parameter limit.
    for (let i = 0; i < days.length; i += 100) {
      const batch = days.slice(i, i + 100);
      await this.db
        .insertInto('dashboard_days')
        .values(
          batch.map((d) => ({
            ...key,
            day: BigInt(d.day),
            checkouts_created: d.conversion === null ? null : BigInt(d.conversion.created),
            checkouts_paid: d.conversion === null ? null : BigInt(d.conversion.paid),
            refunds: BigInt(d.refunds.count),
            refunded_minor: d.refunds.amountMinor,
            failed_renewals: BigInt(d.failedRenewals.count),
            sealed_at: BigInt(sealedAtMs),
          })),
        )
        .onConflict((oc) => oc.columns(['merchant_id', 'mode', 'currency', 'day']).doNothing())
        .execute();
      const methods = batch.flatMap((d) => d.paid);
      for (let j = 0; j < methods.length; j += 100) {
        await this.db
          .insertInto('dashboard_day_methods')
          .values(
            methods.slice(j, j + 100).map((g) => ({
              ...key,
              day: BigInt(g.day),
              payment_method_type: g.type,
              payments: BigInt(g.count),
              volume_minor: g.volumeMinor,
            })),
          )
          .onConflict((oc) => oc.columns(['merchant_id', 'mode', 'currency', 'day', 'payment_method_type']).doNothing())
          .execute();
      }
    }
  }

  async sealConversion(scope: StatsScope, days: readonly ConversionDay[]): Promise<void> {
    for (const d of days) {
      await this.db
        .updateTable('dashboard_days')
        .set({ checkouts_created: BigInt(d.created), checkouts_paid: BigInt(d.paid) })
        .where('merchant_id', '=', scope.merchantId)
        .where('mode', '=', scope.mode)
        .where('currency', '=', scope.currency)
        .where('day', '=', BigInt(d.day))
        .where('checkouts_created', 'is', null)
        .execute();
    }
  }

  async liveSubscriptions(scope: StatsScope): Promise<SubscriptionGroup[]> {
    const rows = await this.db
      .selectFrom('recurrent_payments')
      .select([
        'status',
        'interval_type',
        sql<Aggregate>`count(*)`.as('n'),
        sql<Aggregate>`sum(gross_amount_minor)`.as('amount'),
      ])
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('currency', '=', scope.currency)
      .where(sql<boolean>`status in ('ACTIVE', 'TRIALING')`)
      .groupBy(['status', 'interval_type'])
      .execute();
    return rows.map((r) => ({
      status: r.status as SubscriptionGroup['status'],
      intervalType: r.interval_type as IntervalType,
      count: int(r.n),
      grossAmountMinor: big(r.amount),
    }));
  }

  async subscriptionsByPlan(
    merchantId: string,
    mode: Mode,
    paymentLinkIds: readonly string[],
  ): Promise<PlanSubscriptionGroup[]> {
    if (paymentLinkIds.length === 0) {
      return [];
    }
    // Answered from the index recurrent_payments_plan_stats alone: only the plans' entries are read.
    const rows = await this.db
      .selectFrom('recurrent_payments')
      .select([
        'payment_link_id',
        'status',
        'interval_type',
        sql<Aggregate>`count(*)`.as('n'),
        sql<Aggregate>`sum(gross_amount_minor)`.as('amount'),
      ])
      .where('merchant_id', '=', merchantId)
      .where('mode', '=', mode)
      .where('payment_link_id', 'in', [...paymentLinkIds])
      .groupBy(['payment_link_id', 'status', 'interval_type'])
      .execute();
    return rows.map((r) => ({
      paymentLinkId: r.payment_link_id,
      status: r.status as RecurrentPaymentStatus,
      intervalType: r.interval_type as IntervalType,
      count: int(r.n),
      grossAmountMinor: big(r.amount),
    }));
  }

  async currencies(merchantId: string, mode: Mode): Promise<string[]> {
    // DISTINCT would read every preference of the merchant; this walks the index
    // checkout_preferences_stats (merchant_id, mode, currency, …) one currency at a time, a
    // seek per currency (a "loose index scan", which neither database does by itself).
    const result = await sql<{ currency: string | null }>`
      with recursive c (currency) as (
        select min(currency) from checkout_preferences where merchant_id = ${merchantId} and mode = ${mode}
        union all
        select (
          select min(p.currency) from checkout_preferences p
          where p.merchant_id = ${merchantId} and p.mode = ${mode} and p.currency > c.currency
        )
        from c
        where c.currency is not null
      )
      select currency from c where currency is not null`.execute(this.db);
    return result.rows.map((r) => String(r.currency)).sort();
  }
}
