import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type {
  ConversionDay,
  DashboardStatsRepository,
  PaidGroup,
  PlanSubscriptionGroup,
  RefundDay,
  SealedDay,
  StatsRange,
  StatsScope,
  SubscriptionGroup,
} from '../../domain/dashboard/stats.ts';
import { utcDay } from '../../domain/dashboard/stats.ts';
import type { Mode } from '../../domain/merchants/merchant.ts';
import type { PaymentMethodType } from '../../domain/payment-methods/payment-method.ts';
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

  async paidByDayAndMethod(scope: StatsScope, range: StatsRange): Promise<PaidGroup[]> {
    // closed_at is set only when an order closes (and kept when it is refunded later), so a
    // range on it selects exactly the CLOSED and REFUNDED orders. Index payment_orders_paid_stats
    // is keyed on the same day expression as the GROUP BY, so the groups come out in index order.
    const rows = await this.db
      .selectFrom('payment_orders')
      .select([
        closedDay.as('day'),
        'payment_method_type',
        sql<Aggregate>`count(*)`.as('n'),
        sql<Aggregate>`sum(amount_minor)`.as('volume'),
      ])
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('currency', '=', scope.currency)
      // The days first (the index's key, for the seek), then the exact bounds within them.
      .where(sql<boolean>`${closedDay} >= ${BigInt(utcDay(range.fromMs))}`)
      .where(sql<boolean>`${closedDay} <= ${BigInt(utcDay(range.toMs - 1))}`)
      .where('closed_at', '>=', BigInt(range.fromMs))
      .where('closed_at', '<', BigInt(range.toMs))
      .where(sql<boolean>`amount_minor > 0`)
      .groupBy([closedDay, 'payment_method_type'])
      .execute();
    return rows.map((r) => ({
      day: int(r.day),
      type: r.payment_method_type as PaymentMethodType,
      count: int(r.n),
      volumeMinor: big(r.volume),
    }));
  }

  async refundsByDay(scope: StatsScope, range: StatsRange): Promise<RefundDay[]> {
    // Index payment_orders_refund_stats holds refunded_at in order, so the days come out grouped.
    const rows = await this.db
      .selectFrom('payment_orders')
      .select([
        sql<Aggregate>`refunded_at / 86400000`.as('day'),
        sql<Aggregate>`count(*)`.as('n'),
        sql<Aggregate>`sum(amount_minor)`.as('amount'),
      ])
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('currency', '=', scope.currency)
      .where('refunded_at', '>=', BigInt(range.fromMs))
      .where('refunded_at', '<', BigInt(range.toMs))
      .groupBy(sql`refunded_at / 86400000`)
      .execute();
    return rows.map((r) => ({ day: int(r.day), count: int(r.n), amountMinor: big(r.amount) }));
  }

  async conversionByDay(scope: StatsScope, range: StatsRange): Promise<ConversionDay[]> {
    // Index checkout_preferences_stats (merchant, mode, currency, created_at, status) answers it alone.
    const rows = await this.db
      .selectFrom('checkout_preferences')
      .select([
        sql<Aggregate>`created_at / 86400000`.as('day'),
        sql<Aggregate>`count(*)`.as('created'),
        sql<Aggregate>`sum(case when status = 'PAID' then 1 else 0 end)`.as('paid'),
      ])
      .where('merchant_id', '=', scope.merchantId)
      .where('mode', '=', scope.mode)
      .where('currency', '=', scope.currency)
      .where('created_at', '>=', BigInt(range.fromMs))
      .where('created_at', '<', BigInt(range.toMs))
      .groupBy(sql`created_at / 86400000`)
      .execute();
    return rows.map((r) => ({ day: int(r.day), created: int(r.created), paid: int(r.paid) }));
  }

  async sealedDays(scope: StatsScope, fromDay: number, toDay: number): Promise<SealedDay[]> {
    const inScope = <T extends 'dashboard_days' | 'dashboard_day_methods'>(table: T) =>
      this.db
        .selectFrom(table as 'dashboard_days')
        .where('merchant_id', '=', scope.merchantId)
        .where('mode', '=', scope.mode)
        .where('currency', '=', scope.currency)
        .where('day', '>=', BigInt(fromDay))
        .where('day', '<', BigInt(toDay));
    const [days, methods] = await Promise.all([
      inScope('dashboard_days').selectAll().orderBy('day').execute(),
      inScope('dashboard_day_methods')
        .select([
          'day',
          sql<string>`payment_method_type`.as('type'),
          sql<Aggregate>`payments`.as('n'),
          sql<Aggregate>`volume_minor`.as('volume'),
        ])
        .execute(),
    ]);
    const byDay = new Map<number, SealedDay>();
    for (const r of days) {
      const day = int(r.day);
      byDay.set(day, {
        day,
        refunds: { day, count: int(r.refunds), amountMinor: big(r.refunded_minor) },
        conversion: { day, created: int(r.checkouts_created), paid: int(r.checkouts_paid) },
        paid: [],
      });
    }
    for (const r of methods) {
      // A method row is stored in the same transaction as its day row, so its day is always there.
      byDay.get(int(r.day))?.paid.push({
        day: int(r.day),
        type: r.type as PaymentMethodType,
        count: int(r.n),
        volumeMinor: big(r.volume),
      });
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
            checkouts_created: BigInt(d.conversion.created),
            checkouts_paid: BigInt(d.conversion.paid),
            refunds: BigInt(d.refunds.count),
            refunded_minor: d.refunds.amountMinor,
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

  async failedRenewals(scope: StatsScope, range: StatsRange): Promise<number> {
    // Renewal orders are the ones with a period_attempt (index payment_orders_renewal_stats).
    // A failed order is terminal, so updated_at is when it failed. An EXPIRED one whose
    // subscription had been cancelled before (by merchant or payer) was withdrawn, not failed;
    // the last try of a subscription cancelled because its retries ran out did fail.
    const row = await this.db
      .selectFrom('payment_orders as o')
      .select(sql<Aggregate>`count(*)`.as('n'))
      .where(sql<boolean>`o.period_attempt is not null`)
      .where('o.merchant_id', '=', scope.merchantId)
      .where('o.mode', '=', scope.mode)
      .where('o.currency', '=', scope.currency)
      .where(sql<boolean>`o.status in ('REJECTED', 'EXPIRED')`)
      .where('o.updated_at', '>=', BigInt(range.fromMs))
      .where('o.updated_at', '<', BigInt(range.toMs))
      .where(
        sql<boolean>`not (o.status = 'EXPIRED' and exists (
          select 1 from recurrent_payments r
          where r.id = o.recurrent_payment_id
            and r.canceled_at is not null
            and r.canceled_at <= o.updated_at
            and coalesce(r.deleted_by, '') <> 'retries_exhausted'))`,
      )
      .executeTakeFirst();
    return int(row?.n ?? null);
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
