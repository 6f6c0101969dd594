import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { dailySeries, monthlyRecurringRevenueMinor } from '../../../src/domain/dashboard/stats.figures.ts';
import { DashboardStatsService } from '../../../src/domain/dashboard/stats.service.ts';
import type {
  ConversionDay,
  DayFigures,
  FailedDay,
  FigureRanges,
  OverviewQuery,
  PaidGroup,
  RefundDay,
  SealedDay,
  StatsRange,
  StatsScope,
  SubscriptionGroup,
} from '../../../src/domain/dashboard/stats.ts';
import { DAY_MS, MAX_RANGE_DAYS, SEAL_AFTER_MS, SETTLE_AFTER_MS } from '../../../src/domain/dashboard/stats.ts';
import type { PaymentMethodType } from '../../../src/domain/payment-methods/payment-method.ts';
import type { DashboardStatsRepository } from '../../../src/domain/repositories/dashboard-stats.repository.ts';
import type { Repositories } from '../../../src/domain/repositories/repositories.ts';
import { ManualClock } from '../../../src/domain/shared/clock.ts';
import { AppError } from '../../../src/domain/shared/errors.ts';
import type { UnitOfWork } from '../../../src/domain/shared/unit-of-work.ts';
import type { IntervalType } from '../../../src/domain/subscriptions/payment-link.ts';

/** The documented factors as plain decimal fractions, independent of the code's common denominator. */
const FACTORS: Record<IntervalType, [bigint, bigint]> = {
  DAY: [304_375n, 10_000n],
  WEEK: [4_348n, 1_000n],
  MONTH: [1n, 1n],
  YEAR: [1n, 12n],
};

/** The exact MRR as a fraction N / D (D = 10 000 × 1 000 × 12). */
function exactMrr(sums: Partial<Record<IntervalType, bigint>>): { n: bigint; d: bigint } {
  const d = 10_000n * 1_000n * 12n;
  let n = 0n;
  for (const [type, [num, den]] of Object.entries(FACTORS) as [IntervalType, [bigint, bigint]][]) {
    n += (sums[type] ?? 0n) * num * (d / den);
  }
  return { n, d };
}

const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
const sumsArb = fc.record(
  { DAY: amount, WEEK: amount, MONTH: amount, YEAR: amount },
  { requiredKeys: [] },
) as fc.Arbitrary<Partial<Record<IntervalType, bigint>>>;

describe('monthly recurring revenue', () => {
  test('is the exact normalised sum rounded half-up to a whole minor unit', () => {
    fc.assert(
      fc.property(sumsArb, (sums) => {
        const mrr = monthlyRecurringRevenueMinor(sums);
        const { n, d } = exactMrr(sums);
        // mrr - n/d lies in (-1/2, 1/2]: the nearest integer, ties up.
        const diff2 = 2n * (mrr * d - n);
        assert.ok(diff2 > -d && diff2 <= d, `${Object.entries(sums).join(' ')} → ${mrr}`);
      }),
      { numRuns: 2000 },
    );
  });

  test('never falls when a subscription is added, and sums of plans differ from the sum of their MRRs by at most 1', () => {
    fc.assert(
      fc.property(sumsArb, sumsArb, (a, b) => {
        const both: Partial<Record<IntervalType, bigint>> = {};
        for (const type of ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const) {
          both[type] = (a[type] ?? 0n) + (b[type] ?? 0n);
        }
        const whole = monthlyRecurringRevenueMinor(both);
        assert.ok(whole >= monthlyRecurringRevenueMinor(a));
        const gap = whole - monthlyRecurringRevenueMinor(a) - monthlyRecurringRevenueMinor(b);
        assert.ok(gap >= -1n && gap <= 1n, String(gap));
      }),
    );
  });

  test('monthly plans count as they are, yearly ones a twelfth, daily ×30.4375 and weekly ×4.348', () => {
    assert.equal(monthlyRecurringRevenueMinor({}), 0n);
    assert.equal(monthlyRecurringRevenueMinor({ MONTH: 999n }), 999n);
    assert.equal(monthlyRecurringRevenueMinor({ YEAR: 12_000n }), 1_000n);
    assert.equal(monthlyRecurringRevenueMinor({ YEAR: 6n }), 1n, '0.5 rounds up');
    assert.equal(monthlyRecurringRevenueMinor({ YEAR: 5n }), 0n, '0.4166… rounds down');
    assert.equal(monthlyRecurringRevenueMinor({ DAY: 100n }), 3_044n, '3 043.75');
    assert.equal(monthlyRecurringRevenueMinor({ DAY: 10_000n }), 304_375n);
    assert.equal(monthlyRecurringRevenueMinor({ WEEK: 1_000n }), 4_348n);
    assert.equal(monthlyRecurringRevenueMinor({ WEEK: 1n }), 4n, '4.348');
    // Twelve yearly plans of 1.00 are 1.00 a month, not twelve times a rounded 0.08.
    assert.equal(monthlyRecurringRevenueMinor({ YEAR: 12n * 100n }), 100n);
    // Far beyond 2^53 the arithmetic stays exact.
    assert.equal(monthlyRecurringRevenueMinor({ MONTH: 2n ** 80n }), 2n ** 80n);
  });
});

describe('the daily series', () => {
  const start = Date.UTC(2025, 2, 10);

  test('has one zero-filled point per UTC day the range touches, a part-day range included', () => {
    const series = dailySeries({ fromMs: start + 5 * 3_600_000, toMs: start + 2 * DAY_MS + 1 }, [
      { day: start / DAY_MS + 1, count: 2, volumeMinor: 700n },
    ]);
    assert.deepEqual(series, [
      { dayStartMs: start, volumeMinor: 0n, count: 0 },
      { dayStartMs: start + DAY_MS, volumeMinor: 700n, count: 2 },
      { dayStartMs: start + 2 * DAY_MS, volumeMinor: 0n, count: 0 },
    ]);
  });

  test('a range of exactly one day is one point, and groups of one day from several methods add up', () => {
    const day = start / DAY_MS;
    const series = dailySeries({ fromMs: start, toMs: start + DAY_MS }, [
      { day, count: 1, volumeMinor: 100n },
      { day, count: 3, volumeMinor: 50n },
    ]);
    assert.deepEqual(series, [{ dayStartMs: start, volumeMinor: 150n, count: 4 }]);
  });
});

class FakeStats implements DashboardStatsRepository {
  calls: string[] = [];
  constructor(
    private readonly paid: PaidGroup[],
    private readonly subs: SubscriptionGroup[],
  ) {}
  async dayFigures(_scope: StatsScope, _ranges: FigureRanges): Promise<DayFigures> {
    this.calls.push('paid');
    return {
      paid: this.paid,
      refunds: [{ day: 0, count: 2, amountMinor: 300n }],
      conversion: [],
      failedRenewals: [{ day: 0, count: 3 }],
    };
  }
  async sealedDays(_scope: StatsScope, _fromDay: number, _toDay: number): Promise<SealedDay[]> {
    return [];
  }
  async saveSealedDays(_scope: StatsScope, _days: readonly SealedDay[]): Promise<void> {}
  async sealConversion(_scope: StatsScope, _days: readonly ConversionDay[]): Promise<void> {}
  async liveSubscriptions() {
    return this.subs;
  }
  async currencies() {
    return ['BRL', 'USD'];
  }
  async subscriptionsByPlan() {
    return [];
  }
}

function serviceOver(stats: DashboardStatsRepository, now = Date.UTC(2025, 2, 10)): DashboardStatsService {
  const read = { dashboardStats: stats } as unknown as Repositories;
  const uow: UnitOfWork = { read, transaction: (fn) => fn(read), oneStatement: (fn) => fn(read) };
  return new DashboardStatsService(uow, new ManualClock(new Date(now)));
}

/**
 * A database in miniature: timestamped payments, refunds and checkouts, answered the way the SQL
 * answers (by range, grouped by UTC day), and a store of sealed days that keeps the first write.
 */
class RecordedStats extends FakeStats {
  stored = new Map<number, SealedDay>();
  liveDays = 0;
  constructor(
    private readonly payments: { at: number; type: PaymentMethodType; amount: bigint }[],
    private readonly refunded: { at: number; amount: bigint }[],
    private readonly checkouts: { at: number; paid: boolean }[],
    private readonly failures: number[] = [],
  ) {
    super([], []);
  }
  private countRange(range: StatsRange) {
    this.liveDays += Math.ceil((range.toMs - range.fromMs) / DAY_MS);
  }
  override async dayFigures(_scope: StatsScope, ranges: FigureRanges): Promise<DayFigures> {
    const { payments, checkouts } = ranges;
    for (const range of [payments, checkouts]) {
      if (range) {
        this.countRange(range);
      }
    }
    return {
      paid: payments ? this.paidByDay(payments) : [],
      refunds: payments ? this.refundsByDay(payments) : [],
      conversion: checkouts ? this.conversionByDay(checkouts) : [],
      failedRenewals: payments ? this.failedByDay(payments) : [],
    };
  }
  private paidByDay(range: StatsRange): PaidGroup[] {
    const groups = new Map<string, PaidGroup>();
    for (const p of this.payments.filter((p) => p.at >= range.fromMs && p.at < range.toMs)) {
      const day = Math.floor(p.at / DAY_MS);
      const g = groups.get(`${day} ${p.type}`) ?? { day, type: p.type, count: 0, volumeMinor: 0n };
      g.count += 1;
      g.volumeMinor += p.amount;
      groups.set(`${day} ${p.type}`, g);
    }
    return [...groups.values()];
  }
  private refundsByDay(range: StatsRange): RefundDay[] {
    const days = new Map<number, RefundDay>();
    for (const r of this.refunded.filter((r) => r.at >= range.fromMs && r.at < range.toMs)) {
      const day = Math.floor(r.at / DAY_MS);
      const d = days.get(day) ?? { day, count: 0, amountMinor: 0n };
      d.count += 1;
      d.amountMinor += r.amount;
      days.set(day, d);
    }
    return [...days.values()];
  }
  private failedByDay(range: StatsRange): FailedDay[] {
    const days = new Map<number, FailedDay>();
    for (const at of this.failures.filter((f) => f >= range.fromMs && f < range.toMs)) {
      const day = Math.floor(at / DAY_MS);
      const d = days.get(day) ?? { day, count: 0 };
      d.count += 1;
      days.set(day, d);
    }
    return [...days.values()];
  }
  private conversionByDay(range: StatsRange): ConversionDay[] {
    const days = new Map<number, ConversionDay>();
    for (const c of this.checkouts.filter((c) => c.at >= range.fromMs && c.at < range.toMs)) {
      const day = Math.floor(c.at / DAY_MS);
      const d = days.get(day) ?? { day, created: 0, paid: 0 };
      d.created += 1;
      d.paid += c.paid ? 1 : 0;
      days.set(day, d);
    }
    return [...days.values()];
  }
  override async sealedDays(_scope: StatsScope, fromDay: number, toDay: number): Promise<SealedDay[]> {
    return [...this.stored.values()].filter((d) => d.day >= fromDay && d.day < toDay).map((d) => structuredClone(d));
  }
  override async sealConversion(_scope: StatsScope, days: readonly ConversionDay[]): Promise<void> {
    for (const c of days) {
      const d = this.stored.get(c.day);
      if (d && d.conversion === null) {
        d.conversion = { ...c };
      }
    }
  }
  override async saveSealedDays(_scope: StatsScope, days: readonly SealedDay[]): Promise<void> {
    for (const d of days) {
      if (!this.stored.has(d.day)) {
        this.stored.set(d.day, structuredClone(d));
      }
    }
  }
}

describe('sealed days', () => {
  const origin = Date.UTC(2025, 0, 1);
  const within = fc.integer({ min: 0, max: 40 * DAY_MS - 1 }).map((ms) => origin + ms);
  const types: PaymentMethodType[] = ['CARD', 'PIX', 'CASH'];

  test('give the same figures as counting every row, for any range and any moment, stored or not', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.record({ at: within, type: fc.constantFrom(...types), amount: fc.bigInt(1n, 10_000n) })),
        fc.array(fc.record({ at: within, amount: fc.bigInt(1n, 10_000n) })),
        fc.array(fc.record({ at: within, paid: fc.boolean() })),
        fc.array(within),
        fc.tuple(within, within).filter(([a, b]) => a !== b),
        fc.integer({ min: 0, max: 60 * DAY_MS }),
        async (payments, refunded, checkouts, failures, [a, b], later) => {
          const q: OverviewQuery = {
            merchantId: 'm',
            mode: 'test',
            currency: 'USD',
            fromMs: Math.min(a, b),
            toMs: Math.max(a, b),
            bucket: 'day',
          };
          // Counted live: a moment before anything could be sealed.
          const counted = await serviceOver(
            new RecordedStats(payments, refunded, checkouts, failures),
            origin,
          ).overview(q);
          const db = new RecordedStats(payments, refunded, checkouts, failures);
          const service = serviceOver(db, origin + later);
          const first = await service.overview(q);
          const again = await service.overview(q);
          assert.deepEqual(first, counted);
          assert.deepEqual(again, counted);
          // Later still, stored days whose conversion has become final get it, and nothing changes.
          assert.deepEqual(await serviceOver(db, origin + later + 10 * DAY_MS).overview(q), counted);
        },
      ),
      { numRuns: 300 },
    );
  });

  test('a range of sealed days is counted once, then read from the stored days', async () => {
    const day = (n: number) => origin + n * DAY_MS;
    const db = new RecordedStats(
      [{ at: day(1) + 5, type: 'CARD', amount: 500n }],
      [{ at: day(2), amount: 100n }],
      [{ at: day(1), paid: true }],
    );
    const q: OverviewQuery = {
      merchantId: 'm',
      mode: 'test',
      currency: 'USD',
      fromMs: day(0),
      toMs: day(30),
      bucket: 'day',
    };
    // 40 days after the origin, days 0–30 are sealed (9 days after their end), so 30 whole days.
    const service = serviceOver(db, day(40));
    const first = await service.overview(q);
    assert.equal(db.stored.size, 30, 'every day of the range is stored, days of nothing included');
    assert.equal(first.grossVolumeMinor, 500n);
    db.liveDays = 0;
    const again = await service.overview(q);
    assert.equal(db.liveDays, 0, 'nothing is counted again');
    assert.deepEqual(again, first);
    // A day's payments are final SETTLE_AFTER_MS after it ends, its conversion SEAL_AFTER_MS after:
    // not a millisecond before.
    const originDay = origin / DAY_MS;
    const lastStored = async (now: number) => {
      const fresh = new RecordedStats([], [], []);
      await serviceOver(fresh, now).overview(q);
      const days = [...fresh.stored.values()];
      const last = (list: SealedDay[]) => Math.max(-1, ...list.map((d) => d.day - originDay));
      return { payments: last(days), conversion: last(days.filter((d) => d.conversion !== null)) };
    };
    assert.equal((await lastStored(day(6) + SETTLE_AFTER_MS - 1)).payments, 4);
    assert.equal((await lastStored(day(6) + SETTLE_AFTER_MS)).payments, 5);
    assert.equal((await lastStored(day(6) + SEAL_AFTER_MS - 1)).conversion, 4);
    assert.equal((await lastStored(day(6) + SEAL_AFTER_MS)).conversion, 5);
  });
});

describe('the overview', () => {
  const day = Date.UTC(2025, 2, 10) / DAY_MS;
  const query: OverviewQuery = {
    merchantId: 'm',
    mode: 'test',
    currency: 'USD',
    fromMs: day * DAY_MS,
    toMs: (day + 3) * DAY_MS,
    bucket: 'day',
  };

  test('sums the groups into gross, count, series and a method mix sorted by volume', async () => {
    const stats = new FakeStats(
      [
        { day, type: 'CARD', count: 2, volumeMinor: 500n },
        { day, type: 'PIX', count: 1, volumeMinor: 900n },
        { day: day + 2, type: 'CARD', count: 1, volumeMinor: 500n },
        { day: day + 2, type: 'CASH', count: 4, volumeMinor: 100n },
      ],
      [
        { status: 'ACTIVE', intervalType: 'MONTH', count: 2, grossAmountMinor: 2_000n },
        { status: 'ACTIVE', intervalType: 'YEAR', count: 1, grossAmountMinor: 1_200n },
        { status: 'TRIALING', intervalType: 'WEEK', count: 1, grossAmountMinor: 1_000n },
      ],
    );
    const o = await serviceOver(stats).overview(query);
    assert.equal(o.grossVolumeMinor, 2_000n);
    assert.equal(o.paymentsPaid, 8);
    assert.deepEqual(
      o.series.map((p) => [p.volumeMinor, p.count]),
      [
        [1_400n, 3],
        [0n, 0],
        [600n, 5],
      ],
    );
    assert.deepEqual(o.methodMix, [
      { type: 'CARD', count: 3, volumeMinor: 1_000n },
      { type: 'PIX', count: 1, volumeMinor: 900n },
      { type: 'CASH', count: 4, volumeMinor: 100n },
    ]);
    assert.deepEqual(o.subscriptions, { active: 4, trialing: 1 });
    assert.equal(o.mrrMinor, 2_100n);
    assert.equal(o.trialingMrrMinor, 4_348n);
    assert.deepEqual(o.conversion, { created: 0, paid: 0, rate: null }, 'no checkout: no rate, not NaN');
    assert.deepEqual(o.refunds, { count: 2, amountMinor: 300n });
    assert.equal(o.failedRenewals, 3);
  });

  test('refuses an empty or reversed range, a range longer than the limit and a malformed currency', async () => {
    const service = serviceOver(new FakeStats([], []));
    const cases: [Partial<OverviewQuery>, string][] = [
      [{ toMs: query.fromMs }, 'to must be after from'],
      [{ toMs: query.fromMs - 1 }, 'to must be after from'],
      [{ toMs: query.fromMs + MAX_RANGE_DAYS * DAY_MS + 1 }, `the range must cover at most ${MAX_RANGE_DAYS} days`],
      [{ currency: 'us dollars' }, 'currency must be a currency code'],
      [{ fromMs: Number.NaN }, 'from must be a time after 1970'],
    ];
    for (const [change, message] of cases) {
      await assert.rejects(
        service.overview({ ...query, ...change }),
        (e: unknown) => e instanceof AppError && e.code === 'WRONG_INPUT' && e.messages.includes(message),
        message,
      );
    }
    const longest = await service.overview({ ...query, toMs: query.fromMs + MAX_RANGE_DAYS * DAY_MS });
    assert.equal(longest.series.length, MAX_RANGE_DAYS);
  });
});
