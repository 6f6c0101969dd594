import type { PaymentMethodType } from '../payment-methods/payment-method.ts';
import { divRoundHalfUp } from '../shared/money.ts';
import type { IntervalType } from '../subscriptions/payment-link.ts';
import type { DailyPoint, MethodMixEntry, PaidGroup, StatsRange } from './stats.ts';
import { DAY_MS } from './stats.ts';

// Pure figure maths of the home page: MRR, UTC days and the daily series, the method mix.

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

/** Paid groups summed per method type, largest volume first (ties: more payments, then by name). */
export function methodMix(groups: readonly PaidGroup[]): MethodMixEntry[] {
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

/** The days `fromDay` (included) to `toDay` (excluded). */
export const daysOf = (fromDay: number, toDay: number): number[] =>
  Array.from({ length: Math.max(0, toDay - fromDay) }, (_, i) => fromDay + i);
