import type { Mode } from '../merchants/merchant.ts';
import type { PaymentMethodType } from '../payment-methods/payment-method.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import { divRoundHalfUp } from '../shared/money.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import { DAY_MS } from '../subscriptions/billing-schedule.ts';
import type { IntervalType } from '../subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../subscriptions/recurrent-payment.status.ts';

/**
 * The figures of the dashboard's home page, for one merchant, one mode and one currency.
 *
 * What counts (the same definitions everywhere on the page):
 * - **Paid** (gross volume, payments paid, the daily series, the method mix): payment orders
 *   that reached CLOSED, dated by their `closed_at` — including the ones refunded later, which
 *   stay in gross on the day they were paid (Stripe's "gross volume"); refunds are their own
 *   figure, dated by when they were refunded, so nothing is rewritten in the past. Checkout
 *   orders and subscription charges (first charge and renewals) alike. The amount is the
 *   order's `amount` in the preference's currency (a crypto payment of a USD checkout counts in
 *   USD, whatever coin was sent; an over-payment counts what was due). Orders of amount 0 (the
 *   set-up of a trial without sign-up fee) are no payment and are left out. A push payment that
 *   arrived after expiry (EXPIRED, PAID_LATE) never closed and is not counted.
 * - **Conversion**: checkout preferences created in the range (both PAYMENT and SUBSCRIPTION,
 *   in this currency), and how many of those are PAID now, whenever they were paid (a cohort).
 * - **Refunds**: orders refunded in the range (`refunded_at`), count and amount.
 * - **Subscriptions**: the recurrent payments that are ACTIVE or TRIALING now (not as of the end
 *   of the range: statuses have no history).
 * - **MRR** (monthly recurring revenue): ACTIVE subscriptions, each one's plan amount per period
 *   (`gross_amount`, the plan version's amount it was sold on, before payer fees) normalised to
 *   a month. TRIALING ones pay nothing yet and are left out of MRR, as Stripe does; what they will add
 *   when their trials end is `trialingMrrMinor`. See {@link monthlyRecurringRevenueMinor}.
 * - **Failed renewals**: renewal charges (not first charges) that ended REJECTED (declined card)
 *   or EXPIRED (push renewal not paid in time), dated by when they failed; a renewal order
 *   withdrawn because its subscription was cancelled is not a failure. Each failed try counts.
 *
 * Days are UTC days (`floor(epoch ms / 86 400 000)`).
 *
 * **Sealed days.** A day's figures stop changing once nothing that counts into them can change
 * any more. Payments, refunds and failed renewals are dated by when they happened, written as
 * "now" and never again (a failed renewal is final, and a cancellation that withdraws a renewal is
 * dated before it): they are final {@link SETTLE_AFTER_MS} after the day ends. Conversion is a
 * cohort, final once every checkout created that day has been paid or has expired (a checkout
 * lives at most 7 days): {@link SEAL_AFTER_MS}. Final figures are computed once, stored
 * (`dashboard_days`, conversion filled in when it is final), and read from there from then on,
 * so a 90-day range reads ~90 rows instead of every payment of the range. The rest (today's
 * payments, the last nine days' conversion, any part-day at the ends of a range) is counted live,
 * and so are subscriptions (statuses now). Times are the system clock's; a test-mode clock only
 * runs ahead of it, so nothing is ever written into a day after it is final.
 */

/** One UTC day in ms (the repository's SQL divides by the same 86 400 000). */
export { DAY_MS };
/**
 * How long after a UTC day ends its figures are final: the longest a checkout may stay open
 * (7 days, INTERFACE.md) plus two days for a payment still in flight at its expiry.
 */
export const SEAL_AFTER_MS = 9 * DAY_MS;
/** How long after a UTC day ends its payments, refunds and failed renewals are final (a transaction takes seconds). */
export const SETTLE_AFTER_MS = 2 * 3_600_000;
/** The longest range one overview may cover (its daily series is zero-filled). */
export const MAX_RANGE_DAYS = 732;

/** How the series is bucketed; only days for now. */
export type StatsBucket = 'day';

/** Which merchant's data, in which mode and currency. */
export type StatsScope = { merchantId: string; mode: Mode; currency: string };

/** A range of epoch milliseconds, `fromMs` included, `toMs` excluded. */
export type StatsRange = { fromMs: number; toMs: number };

export type OverviewQuery = StatsScope & StatsRange & { bucket: StatsBucket };

/** One UTC day of the daily series. */
export type DailyPoint = {
  /** Midnight UTC that starts the day, in epoch ms. */
  dayStartMs: number;
  /** Paid volume that day, minor units. */
  volumeMinor: bigint;
  /** Payments paid that day. */
  count: number;
};

/** What one payment method type brought in the range. */
export type MethodMixEntry = { type: PaymentMethodType; count: number; volumeMinor: bigint };

export type ConversionFigures = {
  /** Checkout preferences created in the range. */
  created: number;
  /** Of those, how many are paid. */
  paid: number;
  /** paid / created (0 to 1), or null when none was created. Display only: never used for money. */
  rate: number | null;
};

export type Overview = {
  merchantId: string;
  mode: Mode;
  currency: string;
  fromMs: number;
  toMs: number;
  bucket: StatsBucket;
  /** Sum of the paid orders' amounts, minor units (refunded ones included, see the module comment). */
  grossVolumeMinor: bigint;
  /** Number of paid orders. */
  paymentsPaid: number;
  conversion: ConversionFigures;
  refunds: { count: number; amountMinor: bigint };
  subscriptions: {
    /** ACTIVE + TRIALING now. */
    active: number;
    /** Of `active`, how many are TRIALING. */
    trialing: number;
  };
  /** Monthly recurring revenue of the ACTIVE subscriptions, minor units. */
  mrrMinor: bigint;
  /** The same normalisation over the TRIALING subscriptions: MRR to come when their trials end. */
  trialingMrrMinor: bigint;
  /** Renewal tries that failed in the range. */
  failedRenewals: number;
  /** One point per UTC day touched by the range, oldest first, zero-filled. */
  series: DailyPoint[];
  /** Per method type with at least one payment, largest volume first. */
  methodMix: MethodMixEntry[];
};

// ---- the port ----------------------------------------------------------------------------------

/** Paid orders of one UTC day and one method type. */
export type PaidGroup = { day: number; type: PaymentMethodType; count: number; volumeMinor: bigint };

/** Refunds made on one UTC day (`refunded_at`). */
export type RefundDay = { day: number; count: number; amountMinor: bigint };

/** Checkouts created on one UTC day, and how many of them are PAID. */
export type ConversionDay = { day: number; created: number; paid: number };

/** Paid groups, refunds and conversion of part of a range, by UTC day. */
export type DayFigures = {
  paid: PaidGroup[];
  refunds: RefundDay[];
  conversion: ConversionDay[];
  failedRenewals: FailedDay[];
};

/**
 * Which range each figure is counted over: `payments` for paid, refunds and failed renewals,
 * `checkouts` for conversion; null leaves a figure out (its list comes back empty).
 */
export type FigureRanges = { payments: StatsRange | null; checkouts: StatsRange | null };

/** Renewal tries that failed on one UTC day. */
export type FailedDay = { day: number; count: number };

/** The stored figures of one sealed day: the day's refunds and conversion, and its paid groups. */
export type SealedDay = {
  day: number;
  refunds: RefundDay;
  /** Null until the day's conversion is final ({@link SEAL_AFTER_MS}). */
  conversion: ConversionDay | null;
  failedRenewals: FailedDay;
  paid: PaidGroup[];
};

/** Subscriptions of one status and interval, with the sum of their amounts per period. */
export type SubscriptionGroup = {
  status: 'ACTIVE' | 'TRIALING';
  intervalType: IntervalType;
  count: number;
  grossAmountMinor: bigint;
};

/**
 * Aggregates computed by the database (SUM, COUNT, GROUP BY); no method returns per-order rows.
 * Every method is scoped to one merchant, mode and currency.
 */
export interface DashboardStatsRepository {
  /**
   * The range's figures by UTC day, in one statement (each round trip costs more than these
   * index ranges on PostgreSQL): `paid`, orders closed in the range with a positive amount by day
   * of `closed_at` and method type; `refunds`, orders refunded in the range by day of
   * `refunded_at`; `conversion`, preferences created in the range and how many of them are PAID,
   * by day of creation; `failedRenewals`, renewal orders that failed in the range (see the module
   * comment) by day of failure. Days with nothing are absent.
   */
  dayFigures(scope: StatsScope, ranges: FigureRanges): Promise<DayFigures>;
  /** The stored sealed days among days `fromDay` (included) to `toDay` (excluded). */
  sealedDays(scope: StatsScope, fromDay: number, toDay: number): Promise<SealedDay[]>;
  /** Stores sealed days; a day already stored is left as it is (its figures are the same). */
  saveSealedDays(scope: StatsScope, days: readonly SealedDay[], sealedAtMs: number): Promise<void>;
  /** Fills in the final conversion of stored days that have none yet. */
  sealConversion(scope: StatsScope, days: readonly ConversionDay[]): Promise<void>;
  /** ACTIVE and TRIALING recurrent payments, grouped by status and interval type. */
  liveSubscriptions(scope: StatsScope): Promise<SubscriptionGroup[]>;
  /** Currencies of the merchant's checkout preferences in this mode, sorted. */
  currencies(merchantId: string, mode: Mode): Promise<string[]>;
  /**
   * Recurrent payments of these plans (every status), grouped by plan, status and interval type
   * (the interval of the version each one was sold on), with the sum of their amounts per period.
   */
  subscriptionsByPlan(
    merchantId: string,
    mode: Mode,
    paymentLinkIds: readonly string[],
  ): Promise<PlanSubscriptionGroup[]>;
}

/** Subscriptions of one plan in one status and interval type, with the sum of their amounts per period. */
export type PlanSubscriptionGroup = {
  paymentLinkId: string;
  status: RecurrentPaymentStatus;
  intervalType: IntervalType;
  count: number;
  grossAmountMinor: bigint;
};

/** One plan's subscribers and recurring revenue, in the plan's currency (a plan's currency never changes). */
export type PlanFigures = {
  paymentLinkId: string;
  /** ACTIVE + TRIALING now, as the home page counts active subscriptions. */
  subscribers: number;
  /** Every status the plan's subscriptions are in now (absent: none). */
  byStatus: Partial<Record<RecurrentPaymentStatus, number>>;
  /** MRR of the plan's ACTIVE subscriptions ({@link monthlyRecurringRevenueMinor}). */
  mrrMinor: bigint;
  /** The same over its TRIALING subscriptions: MRR to come when their trials end. */
  trialingMrrMinor: bigint;
};

/** At most this many plans per {@link DashboardStatsService.planFigures} call (a page of a list). */
export const MAX_PLANS_PER_QUERY = 200;

// ---- MRR ---------------------------------------------------------------------------------------

/**
 * Months per period, as exact fractions: a month is 365.25 / 12 = 30.4375 days, so a daily
 * plan is ×30.4375; a weekly plan ×4.348 (the rounded 30.4375 / 7 = 4.3482…, the factor the
 * dashboard documents); a monthly one ×1; a yearly one ÷12. An interval type added later fails
 * to compile here until it has a factor.
 */
export const MRR_FACTORS: Readonly<Record<IntervalType, { numerator: bigint; denominator: bigint }>> = {
  DAY: { numerator: 304_375n, denominator: 10_000n },
  WEEK: { numerator: 4_348n, denominator: 1_000n },
  MONTH: { numerator: 1n, denominator: 1n },
  YEAR: { numerator: 1n, denominator: 12n },
};

/** Common denominator of the factors (lcm of 10 000, 1 000, 1 and 12). */
const MRR_DENOMINATOR = 30_000n;

/**
 * Monthly recurring revenue, minor units, from the sum of the amounts per period of each
 * interval type: Σ sum(type) × factor(type), computed exactly in integers (a common
 * denominator) and rounded half-up once at the end, so 12 yearly plans of 1.00 make exactly
 * 1.00 a month and no rounding error piles up over many subscriptions.
 */
export function monthlyRecurringRevenueMinor(sums: Partial<Record<IntervalType, bigint>>): bigint {
  let numerator = 0n;
  for (const type of Object.keys(MRR_FACTORS) as IntervalType[]) {
    const sum = sums[type] ?? 0n;
    const f = MRR_FACTORS[type];
    numerator += sum * f.numerator * (MRR_DENOMINATOR / f.denominator);
  }
  return divRoundHalfUp(numerator, MRR_DENOMINATOR);
}

// ---- the series --------------------------------------------------------------------------------

/** The UTC day (days since the epoch) holding `ms`. */
export const utcDay = (ms: number): number => Math.floor(ms / DAY_MS);

/** One zero-filled point per UTC day from the day of `fromMs` to the day of `toMs - 1`. */
export function dailySeries(
  range: StatsRange,
  groups: readonly Pick<PaidGroup, 'day' | 'count' | 'volumeMinor'>[],
): DailyPoint[] {
  const first = utcDay(range.fromMs);
  const last = utcDay(range.toMs - 1);
  const series: DailyPoint[] = [];
  for (let day = first; day <= last; day++) {
    series.push({ dayStartMs: day * DAY_MS, volumeMinor: 0n, count: 0 });
  }
  for (const g of groups) {
    const point = series[g.day - first];
    if (point) {
      point.volumeMinor += g.volumeMinor;
      point.count += g.count;
    }
  }
  return series;
}

function methodMix(groups: readonly PaidGroup[]): MethodMixEntry[] {
  const byType = new Map<PaymentMethodType, MethodMixEntry>();
  for (const g of groups) {
    const entry = byType.get(g.type) ?? { type: g.type, count: 0, volumeMinor: 0n };
    entry.count += g.count;
    entry.volumeMinor += g.volumeMinor;
    byType.set(g.type, entry);
  }
  return [...byType.values()].sort((a, b) =>
    a.volumeMinor !== b.volumeMinor
      ? a.volumeMinor > b.volumeMinor
        ? -1
        : 1
      : b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0),
  );
}

function checkQuery(q: OverviewQuery): void {
  const messages: string[] = [];
  if (!/^[A-Z]{3,5}$/.test(q.currency)) {
    messages.push('currency must be a currency code');
  }
  if (!Number.isSafeInteger(q.fromMs) || q.fromMs < 0) {
    messages.push('from must be a time after 1970');
  }
  if (!Number.isSafeInteger(q.toMs) || q.toMs <= q.fromMs) {
    messages.push('to must be after from');
  } else if (utcDay(q.toMs - 1) - utcDay(q.fromMs) >= MAX_RANGE_DAYS) {
    messages.push(`the range must cover at most ${MAX_RANGE_DAYS} days`);
  }
  if (q.bucket !== 'day') {
    messages.push('bucket must be day');
  }
  if (messages.length > 0) {
    throw new AppError('WRONG_INPUT', messages);
  }
}

/** The days `fromDay` (included) to `toDay` (excluded). */
const daysOf = (fromDay: number, toDay: number): number[] =>
  Array.from({ length: Math.max(0, toDay - fromDay) }, (_, i) => fromDay + i);

/**
 * The home page's figures. Reads committed data only (`uow.read`); every live figure is one
 * aggregate query. The one write is storing newly sealed days (see the module comment).
 */
export class DashboardStatsService {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async overview(q: OverviewQuery): Promise<Overview> {
    checkQuery(q);
    const scope: StatsScope = { merchantId: q.merchantId, mode: q.mode, currency: q.currency };
    const range: StatsRange = { fromMs: q.fromMs, toMs: q.toMs };
    const stats = this.uow.read.dashboardStats;
    // Whole days of the range from its first: [first, settled) have final payment figures,
    // [first, sealed) final conversion too (sealed ≤ settled); the rest is counted live.
    const now = this.clock.now().getTime();
    const first = Math.ceil(q.fromMs / DAY_MS);
    const lastWhole = Math.max(first, Math.floor(q.toMs / DAY_MS));
    const settled = Math.max(first, Math.min(lastWhole, Math.floor((now - SETTLE_AFTER_MS) / DAY_MS)));
    const sealed = Math.max(first, Math.min(settled, Math.floor((now - SEAL_AFTER_MS) / DAY_MS)));
    const head: StatsRange = { fromMs: q.fromMs, toMs: Math.min(q.toMs, first * DAY_MS) };
    const tail = (fromDay: number): StatsRange | null =>
      fromDay * DAY_MS < q.toMs ? { fromMs: Math.max(q.fromMs, fromDay * DAY_MS), toMs: q.toMs } : null;
    const live: FigureRanges[] =
      settled === first
        ? [{ payments: range, checkouts: range }]
        : [
            ...(head.toMs > head.fromMs ? [{ payments: head, checkouts: head }] : []),
            { payments: tail(settled), checkouts: tail(sealed) },
          ];
    const [stored, liveParts, subscriptions] = await Promise.all([
      settled > first ? this.sealedFigures(scope, first, settled, sealed) : null,
      Promise.all(live.filter((r) => r.payments || r.checkouts).map((r) => stats.dayFigures(scope, r))),
      stats.liveSubscriptions(scope),
    ]);
    const parts = stored ? [stored, ...liveParts] : liveParts;
    const paid = parts.flatMap((p) => p.paid);
    const refunds = parts.flatMap((p) => p.refunds);
    const conversion = parts.flatMap((p) => p.conversion);
    const failedRenewals = parts.flatMap((p) => p.failedRenewals).reduce((sum, d) => sum + d.count, 0);
    const created = conversion.reduce((sum, d) => sum + d.created, 0);
    const converted = conversion.reduce((sum, d) => sum + d.paid, 0);
    const active: Partial<Record<IntervalType, bigint>> = {};
    const trialing: Partial<Record<IntervalType, bigint>> = {};
    let activeCount = 0;
    let trialingCount = 0;
    for (const g of subscriptions) {
      const sums = g.status === 'ACTIVE' ? active : trialing;
      sums[g.intervalType] = (sums[g.intervalType] ?? 0n) + g.grossAmountMinor;
      activeCount += g.count;
      if (g.status === 'TRIALING') {
        trialingCount += g.count;
      }
    }
    return {
      merchantId: q.merchantId,
      mode: q.mode,
      currency: q.currency,
      fromMs: q.fromMs,
      toMs: q.toMs,
      bucket: q.bucket,
      grossVolumeMinor: paid.reduce((sum, g) => sum + g.volumeMinor, 0n),
      paymentsPaid: paid.reduce((sum, g) => sum + g.count, 0),
      conversion: { created, paid: converted, rate: created === 0 ? null : converted / created },
      refunds: {
        count: refunds.reduce((sum, d) => sum + d.count, 0),
        amountMinor: refunds.reduce((sum, d) => sum + d.amountMinor, 0n),
      },
      subscriptions: { active: activeCount, trialing: trialingCount },
      mrrMinor: monthlyRecurringRevenueMinor(active),
      trialingMrrMinor: monthlyRecurringRevenueMinor(trialing),
      failedRenewals,
      series: dailySeries(range, paid),
      methodMix: methodMix(paid),
    };
  }

  /**
   * The stored figures of days `fromDay`..`settled` (excluded), conversion only for days before
   * `sealed`. Days not stored yet are counted live once and stored (a day of nothing included,
   * so it is never counted again), and stored days whose conversion has become final get it. Two
   * pages storing the same day at once store the same figures; the second write changes nothing.
   */
  private async sealedFigures(
    scope: StatsScope,
    fromDay: number,
    settled: number,
    sealed: number,
  ): Promise<DayFigures> {
    const stats = this.uow.read.dashboardStats;
    const stored = await stats.sealedDays(scope, fromDay, settled);
    const have = new Set(stored.map((d) => d.day));
    const missing = daysOf(fromDay, settled).filter((day) => !have.has(day));
    const unsealed = stored.filter((d) => d.conversion === null && d.day < sealed).map((d) => d.day);
    const span = (days: number[]): StatsRange | null =>
      days.length === 0
        ? null
        : { fromMs: (days[0] as number) * DAY_MS, toMs: ((days[days.length - 1] as number) + 1) * DAY_MS };
    const conversionDays = [...missing.filter((day) => day < sealed), ...unsealed].sort((a, b) => a - b);
    const counted =
      missing.length + conversionDays.length > 0
        ? await stats.dayFigures(scope, { payments: span(missing), checkouts: span(conversionDays) })
        : { paid: [], refunds: [], conversion: [], failedRenewals: [] };
    const conversionOf = (day: number): ConversionDay =>
      counted.conversion.find((c) => c.day === day) ?? { day, created: 0, paid: 0 };
    const fresh: SealedDay[] = missing.map((day) => ({
      day,
      refunds: counted.refunds.find((r) => r.day === day) ?? { day, count: 0, amountMinor: 0n },
      conversion: day < sealed ? conversionOf(day) : null,
      failedRenewals: counted.failedRenewals.find((f) => f.day === day) ?? { day, count: 0 },
      paid: counted.paid.filter((g) => g.day === day),
    }));
    const nowSealed = unsealed.map(conversionOf);
    if (fresh.length > 0 || nowSealed.length > 0) {
      const sealedAt = this.clock.now().getTime();
      await this.uow.transaction(async (repos) => {
        await repos.dashboardStats.saveSealedDays(scope, fresh, sealedAt);
        await repos.dashboardStats.sealConversion(scope, nowSealed);
      });
    }
    const sealedNow = new Map(nowSealed.map((c) => [c.day, c]));
    const days = [...stored, ...fresh];
    return {
      paid: days.flatMap((d) => d.paid),
      refunds: days.map((d) => d.refunds),
      conversion: days.flatMap((d) => {
        const c = d.conversion ?? sealedNow.get(d.day);
        return c && d.day < sealed ? [c] : [];
      }),
      failedRenewals: days.map((d) => d.failedRenewals),
    };
  }

  /**
   * Subscribers and MRR of each plan (one aggregate query over the plans' index entries, however
   * many subscriptions they have). Every plan asked for is in the answer, with zeros when it has
   * no subscription yet.
   */
  async planFigures(
    merchantId: string,
    mode: Mode,
    paymentLinkIds: readonly string[],
  ): Promise<Map<string, PlanFigures>> {
    const ids = [...new Set(paymentLinkIds)];
    if (ids.length > MAX_PLANS_PER_QUERY) {
      throw new AppError('WRONG_INPUT', [`at most ${MAX_PLANS_PER_QUERY} plans at a time`]);
    }
    const groups =
      ids.length === 0 ? [] : await this.uow.read.dashboardStats.subscriptionsByPlan(merchantId, mode, ids);
    const sums = new Map(
      ids.map((id) => [
        id,
        {
          byStatus: {} as Partial<Record<RecurrentPaymentStatus, number>>,
          active: {} as Partial<Record<IntervalType, bigint>>,
          trialing: {} as Partial<Record<IntervalType, bigint>>,
        },
      ]),
    );
    for (const g of groups) {
      const plan = sums.get(g.paymentLinkId);
      if (!plan) {
        continue;
      }
      plan.byStatus[g.status] = (plan.byStatus[g.status] ?? 0) + g.count;
      const bucket = g.status === 'ACTIVE' ? plan.active : g.status === 'TRIALING' ? plan.trialing : null;
      if (bucket) {
        bucket[g.intervalType] = (bucket[g.intervalType] ?? 0n) + g.grossAmountMinor;
      }
    }
    const figures = new Map<string, PlanFigures>();
    for (const [id, plan] of sums) {
      figures.set(id, {
        paymentLinkId: id,
        subscribers: (plan.byStatus.ACTIVE ?? 0) + (plan.byStatus.TRIALING ?? 0),
        byStatus: plan.byStatus,
        mrrMinor: monthlyRecurringRevenueMinor(plan.active),
        trialingMrrMinor: monthlyRecurringRevenueMinor(plan.trialing),
      });
    }
    return figures;
  }

  /** The currencies the merchant has checkouts in (in this mode), for the currency picker; sorted. */
  currenciesWithActivity(merchantId: string, mode: Mode): Promise<string[]> {
    return this.uow.read.dashboardStats.currencies(merchantId, mode);
  }
}
