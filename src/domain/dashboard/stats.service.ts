import type { Mode } from '../merchants/merchant.ts';
import type { Clock } from '../shared/clock.ts';
import { AppError } from '../shared/errors.ts';
import type { UnitOfWork } from '../shared/unit-of-work.ts';
import type { IntervalType } from '../subscriptions/payment-link.ts';
import type { RecurrentPaymentStatus } from '../subscriptions/recurrent-payment.status.ts';
import { dailySeries, daysOf, methodMix, monthlyRecurringRevenueMinor, utcDay } from './stats.figures.ts';
import type {
  ConversionDay,
  DayFigures,
  FigureRanges,
  Overview,
  OverviewQuery,
  PlanFigures,
  SealedDay,
  StatsRange,
  StatsScope,
} from './stats.ts';
import { DAY_MS, MAX_PLANS_PER_QUERY, MAX_RANGE_DAYS, SEAL_AFTER_MS, SETTLE_AFTER_MS } from './stats.ts';

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
