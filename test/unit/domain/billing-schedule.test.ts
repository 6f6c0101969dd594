import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  addIntervals,
  DAY_MS,
  DEFAULT_RETRY_DAYS,
  duePeriods,
  periodBounds,
  periodIndexAt,
  retryDates,
  trialEnd,
  WEEK_MS,
} from '../../../src/domain/subscriptions/billing-schedule.ts';
import type { IntervalType } from '../../../src/domain/subscriptions/payment-link.ts';
import { INTERVAL_TYPES } from '../../../src/domain/subscriptions/payment-link.ts';

// Issue 5: periods are computed from the start date in UTC, month ends are clamped
// (Jan 31 → Feb 28/29 → Mar 31), and each (subscription, period) is charged once, catching up
// period by period after a clock jump. The reference calendar below leans on Date's own
// day-overflow rules (day 0 of the next month), not on the code under test.

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_115);
const RUNS = { seed: SEED, numRuns: 1_500 };

/** A UTC instant with a 1-based month, for readable examples. */
const utc = (y: number, month: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number =>
  Date.UTC(y, month - 1, d, h, mi, s, ms);

const iso = (ms: number): string => new Date(ms).toISOString();

/** Days in a 0-based month, by Date's rollover: day 0 of the next month is this month's last day. */
const refDaysInMonth = (y: number, month0: number): number => new Date(Date.UTC(y, month0 + 1, 0)).getUTCDate();

const refTimeOfDay = (ms: number): number => ms - Date.UTC(...ymd(ms));

function ymd(ms: number): [number, number, number] {
  const d = new Date(ms);
  return [d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()];
}

// Years from 1900 so that Date.UTC (which reads 0–99 as 1900–1999) is a safe reference.
const MIN_MS = utc(1900, 1, 1);
const MAX_MS = utc(2199, 12, 31, 23, 59, 59, 999);
const anyInstant = fc.integer({ min: MIN_MS, max: MAX_MS });
const intervalType = fc.constantFrom(...INTERVAL_TYPES);
const msOfDay = fc.integer({ min: 0, max: DAY_MS - 1 });
/** Periods far enough to cross many leap years, near enough to stay below year 2900 with YEAR. */
const periodIndex = fc.nat({ max: 600 });

/** Anchors that clamp: the 28th to the 31st of a month that has that day. */
const monthEndAnchor = fc
  .record({
    y: fc.integer({ min: 1900, max: 2199 }),
    m0: fc.integer({ min: 0, max: 11 }),
    day: fc.integer({ min: 28, max: 31 }),
    t: msOfDay,
  })
  .map(({ y, m0, day, t }) => Date.UTC(y, m0, Math.min(day, refDaysInMonth(y, m0))) + t);
const anchor = fc.oneof(anyInstant, monthEndAnchor);

/** The shortest and longest period of each interval type, in days. */
const PERIOD_DAYS: Record<IntervalType, readonly [number, number]> = {
  DAY: [1, 1],
  WEEK: [7, 7],
  MONTH: [28, 31],
  YEAR: [365, 366],
};

/** Started periods computed the slow way: walk k up while period k has begun. */
function refStartedPeriods(anchorMs: number, type: IntervalType, nowMs: number): number {
  let k = 0;
  while (addIntervals(anchorMs, type, k) <= nowMs) {
    k += 1;
  }
  return k;
}

describe('addIntervals: the examples of issue 5', () => {
  test('Jan 31 monthly in a leap year: Feb 29, Mar 31, Apr 30', () => {
    const jan31 = utc(2024, 1, 31);
    assert.equal(iso(addIntervals(jan31, 'MONTH', 1)), '2024-02-29T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 2)), '2024-03-31T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 3)), '2024-04-30T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 13)), '2025-02-28T00:00:00.000Z');
  });

  test('Jan 31 monthly in a common year: Feb 28, Mar 31, Apr 30', () => {
    const jan31 = utc(2025, 1, 31);
    assert.equal(iso(addIntervals(jan31, 'MONTH', 1)), '2025-02-28T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 2)), '2025-03-31T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 3)), '2025-04-30T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 11)), '2025-12-31T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 12)), '2026-01-31T00:00:00.000Z');
  });

  test('Feb 29 yearly: Feb 28 in common years, Feb 29 again in leap years, and the century rule', () => {
    const feb29 = utc(2024, 2, 29);
    assert.equal(iso(addIntervals(feb29, 'YEAR', 1)), '2025-02-28T00:00:00.000Z');
    assert.equal(iso(addIntervals(feb29, 'YEAR', 4)), '2028-02-29T00:00:00.000Z');
    assert.equal(iso(addIntervals(feb29, 'YEAR', 76)), '2100-02-28T00:00:00.000Z');
    const y2000 = utc(2000, 2, 29);
    assert.equal(iso(addIntervals(y2000, 'YEAR', 100)), '2100-02-28T00:00:00.000Z');
    assert.equal(iso(addIntervals(y2000, 'YEAR', 400)), '2400-02-29T00:00:00.000Z');
  });

  test('keeps the time of day, to the millisecond', () => {
    const start = utc(2025, 1, 31, 23, 59, 59, 999);
    assert.equal(iso(addIntervals(start, 'MONTH', 1)), '2025-02-28T23:59:59.999Z');
    assert.equal(iso(addIntervals(start, 'YEAR', 1)), '2026-01-31T23:59:59.999Z');
    assert.equal(iso(addIntervals(start, 'DAY', 1)), '2025-02-01T23:59:59.999Z');
  });

  test('DAY and WEEK are exact multiples of 86,400,000 ms, across month and year ends', () => {
    const start = utc(2024, 12, 30, 6);
    assert.equal(addIntervals(start, 'DAY', 3), start + 3 * 86_400_000);
    assert.equal(iso(addIntervals(start, 'DAY', 3)), '2025-01-02T06:00:00.000Z');
    assert.equal(addIntervals(start, 'WEEK', 2), start + 14 * 86_400_000);
    assert.equal(WEEK_MS, 7 * DAY_MS);
  });

  test('zero intervals is the start itself', () => {
    for (const type of INTERVAL_TYPES) {
      assert.equal(addIntervals(utc(2025, 1, 31, 12), type, 0), utc(2025, 1, 31, 12), type);
    }
  });

  test('chaining one month at a time drifts; the anchored result does not', () => {
    const jan31 = utc(2025, 1, 31);
    const chained = addIntervals(addIntervals(jan31, 'MONTH', 1), 'MONTH', 1);
    assert.equal(iso(chained), '2025-03-28T00:00:00.000Z');
    assert.equal(iso(addIntervals(jan31, 'MONTH', 2)), '2025-03-31T00:00:00.000Z');
  });

  test('works before 1970 and in years 0–99, which Date.UTC would misread', () => {
    assert.equal(iso(addIntervals(utc(1969, 12, 31, 18), 'MONTH', 2)), '1970-02-28T18:00:00.000Z');
    const year50 = Date.parse('0050-01-31T08:00:00.000Z');
    assert.equal(iso(addIntervals(year50, 'MONTH', 1)), '0050-02-28T08:00:00.000Z');
    assert.equal(iso(addIntervals(year50, 'YEAR', 1)), '0051-01-31T08:00:00.000Z');
  });

  test('rejects counts that are negative or fractional, starts that are not integer epoch ms, and results past the Date range', () => {
    const start = utc(2025, 1, 1);
    assert.throws(() => addIntervals(start, 'MONTH', -1), RangeError);
    assert.throws(() => addIntervals(start, 'MONTH', 1.5), RangeError);
    assert.throws(() => addIntervals(Number.NaN, 'DAY', 1), RangeError);
    assert.throws(() => addIntervals(start + 0.5, 'DAY', 1), RangeError);
    assert.throws(() => addIntervals(start, 'DAY', 200_000_000), RangeError);
    assert.throws(() => addIntervals(start, 'YEAR', 300_000), RangeError);
  });
});

describe('periodBounds, trialEnd, periodIndexAt, duePeriods, retryDates: examples', () => {
  test('period k runs from the k-th to the (k+1)-th anchored date', () => {
    const jan31 = utc(2025, 1, 31, 10);
    assert.deepEqual(periodBounds(jan31, 'MONTH', 0), { start: jan31, end: utc(2025, 2, 28, 10) });
    assert.deepEqual(periodBounds(jan31, 'MONTH', 1), { start: utc(2025, 2, 28, 10), end: utc(2025, 3, 31, 10) });
    assert.throws(() => periodBounds(jan31, 'MONTH', -1), RangeError);
  });

  test('trialEnd is the start without a trial, and the anchored date with one', () => {
    const start = utc(2025, 1, 31, 9);
    assert.equal(trialEnd(start, null, 0), start);
    assert.equal(trialEnd(start, null, 3), start, 'a count without a unit is no trial');
    assert.equal(trialEnd(start, 'DAY', 0), start);
    assert.equal(trialEnd(start, 'DAY', 14), utc(2025, 2, 14, 9));
    assert.equal(trialEnd(start, 'MONTH', 1), utc(2025, 2, 28, 9));
    assert.equal(trialEnd(start, 'WEEK', 1), utc(2025, 2, 7, 9));
  });

  test('periodIndexAt: −1 before the anchor, 0 from it, k on the start of period k and up to its last millisecond', () => {
    const jan31 = utc(2025, 1, 31);
    assert.equal(periodIndexAt(jan31, 'MONTH', jan31 - 1), -1);
    assert.equal(periodIndexAt(jan31, 'MONTH', jan31), 0);
    assert.equal(periodIndexAt(jan31, 'MONTH', utc(2025, 2, 28) - 1), 0);
    assert.equal(periodIndexAt(jan31, 'MONTH', utc(2025, 2, 28)), 1);
    assert.equal(periodIndexAt(jan31, 'MONTH', utc(2025, 3, 30, 23, 59, 59, 999)), 1);
    assert.equal(periodIndexAt(jan31, 'MONTH', utc(2025, 3, 31)), 2);
    assert.equal(periodIndexAt(utc(2024, 2, 29), 'YEAR', utc(2025, 2, 28)), 1);
    assert.equal(periodIndexAt(utc(2024, 2, 29), 'YEAR', utc(2025, 2, 27)), 0);
  });

  test('periodIndexAt answers for a hundred million periods away without walking them', () => {
    // CPU time, not wall time: a pause of the machine is not an iteration.
    const started = process.cpuUsage();
    assert.equal(periodIndexAt(0, 'DAY', 8.64e15), 100_000_000);
    assert.equal(periodIndexAt(-8.64e15, 'WEEK', 8.64e15), Math.floor(200_000_000 / 7));
    // The Date range runs from -271821-04-20 to +275760-09-13: 547,581 years and 5 months, less
    // a few days, so the last monthly period started on +275760-08-20.
    assert.equal(periodIndexAt(-8.64e15, 'MONTH', 8.64e15), 547_581 * 12 + 4);
    assert.equal(periodIndexAt(-8.64e15, 'YEAR', 8.64e15), 547_581);
    // Walking 10^8 periods would take seconds; the bound leaves room for a loaded machine.
    const spent = process.cpuUsage(started);
    assert.ok((spent.user + spent.system) / 1000 < 250, 'estimate then adjust, no iteration over periods');
  });

  test('duePeriods: the first period is paid at checkout, renewals come due on their start', () => {
    const jan31 = utc(2025, 1, 31, 12);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 1, utc(2025, 2, 28, 11, 59, 59, 999), 12), []);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 1, utc(2025, 2, 28, 12), 12), [1]);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 2, utc(2025, 3, 1), 12), []);
  });

  test('duePeriods: a clock jump over several periods lists each of them, in order', () => {
    const jan31 = utc(2025, 1, 31);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 1, utc(2025, 5, 30), null), [1, 2, 3]);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 1, utc(2025, 5, 31), null), [1, 2, 3, 4]);
  });

  test('duePeriods: never beyond the plan’s interval_count, nothing before the anchor or the trial end', () => {
    const jan31 = utc(2025, 1, 31);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 1, utc(2030, 1, 1), 3), [1, 2]);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 3, utc(2030, 1, 1), 3), []);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 0, utc(2030, 1, 1), 0), []);
    assert.deepEqual(duePeriods(jan31, 'MONTH', 0, jan31 - 1, null), []);
    const anchorAfterTrial = trialEnd(jan31, 'DAY', 14);
    assert.deepEqual(duePeriods(anchorAfterTrial, 'MONTH', 0, utc(2025, 2, 13), 12), []);
    assert.deepEqual(duePeriods(anchorAfterTrial, 'MONTH', 0, utc(2025, 2, 14), 12), [0]);
    assert.throws(() => duePeriods(jan31, 'MONTH', -1, jan31, null), RangeError);
    assert.throws(() => duePeriods(jan31, 'MONTH', 0, jan31, 1.5), RangeError);
  });

  test('retryDates: 1, 3 and 5 days after the failure by default, each from the failure', () => {
    const failed = utc(2025, 2, 28, 12, 30);
    assert.deepEqual(DEFAULT_RETRY_DAYS, [1, 3, 5]);
    assert.deepEqual(retryDates(failed).map(iso), [
      '2025-03-01T12:30:00.000Z',
      '2025-03-03T12:30:00.000Z',
      '2025-03-05T12:30:00.000Z',
    ]);
    assert.deepEqual(retryDates(failed, [2, 7]), [failed + 2 * DAY_MS, failed + 7 * DAY_MS]);
    assert.deepEqual(retryDates(failed, [0.25]), [failed + 6 * 3_600_000]);
    assert.deepEqual(retryDates(failed, []), []);
  });

  test('retryDates rejects a schedule out of order, repeated, at the failure itself or not finite', () => {
    const failed = utc(2025, 2, 28);
    for (const days of [[3, 1], [1, 1], [0, 1], [-1], [Number.NaN], [Number.POSITIVE_INFINITY]]) {
      assert.throws(() => retryDates(failed, days), RangeError, JSON.stringify(days));
    }
  });
});

describe('billing calendar properties', () => {
  test('periods are contiguous and strictly increasing, and as long as their interval', () => {
    fc.assert(
      fc.property(anchor, intervalType, periodIndex, (a, type, k) => {
        const p = periodBounds(a, type, k);
        const next = periodBounds(a, type, k + 1);
        assert.equal(p.end, next.start, 'contiguous');
        assert.ok(p.start < p.end, 'strictly increasing');
        const days = (p.end - p.start) / DAY_MS;
        const [min, max] = PERIOD_DAYS[type];
        assert.ok(Number.isInteger(days) && days >= min && days <= max, `${type} period of ${days} days`);
      }),
      RUNS,
    );
  });

  test('month and year periods start on the anchor’s day of month, or the month’s last day when it is shorter', () => {
    fc.assert(
      fc.property(anchor, fc.constantFrom<IntervalType>('MONTH', 'YEAR'), periodIndex, (a, type, k) => {
        const [ay, am, ad] = ymd(a);
        const months = am + (type === 'MONTH' ? k : 12 * k);
        const y = ay + Math.floor(months / 12);
        const m0 = months % 12;
        const start = addIntervals(a, type, k);
        assert.deepEqual(ymd(start), [y, m0, Math.min(ad, refDaysInMonth(y, m0))], `${iso(a)} + ${k} ${type}`);
        assert.equal(refTimeOfDay(start), refTimeOfDay(a), 'time of day kept');
      }),
      RUNS,
    );
  });

  test('a Jan-31 anchor never drifts: every monthly period starts on the last day of its month', () => {
    const jan31 = fc
      .record({ y: fc.integer({ min: 1900, max: 2199 }), t: msOfDay })
      .map(({ y, t }) => Date.UTC(y, 0, 31) + t);
    fc.assert(
      fc.property(jan31, periodIndex, (a, k) => {
        const [y, m0, d] = ymd(addIntervals(a, 'MONTH', k));
        assert.equal(d, refDaysInMonth(y, m0), `${iso(a)} + ${k} months`);
        assert.ok(d === 31 || refDaysInMonth(y, m0) < 31);
      }),
      RUNS,
    );
  });

  test('Feb 29 anchors: yearly periods fall on Feb 29 in leap years and Feb 28 otherwise, never in March', () => {
    const feb29 = fc
      .record({
        y: fc
          .integer({ min: 475, max: 549 })
          .map((q) => q * 4)
          .filter((y) => refDaysInMonth(y, 1) === 29),
        t: msOfDay,
      })
      .map(({ y, t }) => Date.UTC(y, 1, 29) + t);
    fc.assert(
      fc.property(feb29, periodIndex, (a, k) => {
        const start = addIntervals(a, 'YEAR', k);
        const [y, m0, d] = ymd(start);
        assert.equal(m0, 1, `${iso(start)} is in February`);
        assert.equal(d, refDaysInMonth(y, 1), `${iso(start)} is February's last day`);
        assert.equal(start, addIntervals(a, 'MONTH', 12 * k), 'a year is twelve anchored months');
      }),
      RUNS,
    );
  });

  test('chaining is not required to match the anchored date: it is never later, and equal when nothing clamps', () => {
    // Clamping throws away the anchor's day; a chained second step starts from the clamped
    // date and cannot recover it (Jan 31 → Feb 28 → Mar 28). Hence the schedule is anchored.
    fc.assert(
      fc.property(anchor, intervalType, periodIndex, periodIndex, (a, type, x, y) => {
        const anchored = addIntervals(a, type, x + y);
        const chained = addIntervals(addIntervals(a, type, x), type, y);
        assert.ok(chained <= anchored, `${iso(chained)} after ${iso(anchored)}`);
        if (type === 'DAY' || type === 'WEEK' || ymd(a)[2] <= 28) {
          assert.equal(chained, anchored);
        }
      }),
      RUNS,
    );
  });

  test('periodIndexAt finds period k from its first to its last millisecond', () => {
    fc.assert(
      fc.property(anchor, intervalType, periodIndex, fc.double({ min: 0, max: 1, noNaN: true }), (a, type, k, f) => {
        const { start, end } = periodBounds(a, type, k);
        assert.equal(periodIndexAt(a, type, start), k);
        assert.equal(periodIndexAt(a, type, end - 1), k);
        const inside = Math.min(end - 1, start + Math.floor(f * (end - start)));
        assert.equal(periodIndexAt(a, type, inside), k);
      }),
      RUNS,
    );
  });

  test('periodIndexAt of any instant is the period that contains it, or −1 before the anchor', () => {
    fc.assert(
      fc.property(anchor, intervalType, anyInstant, (a, type, at) => {
        const k = periodIndexAt(a, type, at);
        if (at < a) {
          assert.equal(k, -1);
          return;
        }
        const { start, end } = periodBounds(a, type, k);
        assert.ok(start <= at && at < end, `${iso(at)} not in [${iso(start)}, ${iso(end)})`);
      }),
      RUNS,
    );
  });

  test('duePeriods returns exactly the started, uncharged periods within the plan, each once and in order', () => {
    const maxPeriods = fc.option(fc.nat({ max: 60 }), { nil: null });
    fc.assert(
      fc.property(
        anchor,
        intervalType,
        fc.nat({ max: 60 }),
        fc.integer({ min: -2, max: 50 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        maxPeriods,
        (a, type, charged, periodsLater, f, max) => {
          // "now" lands anywhere from two days before the anchor to fifty periods after it.
          const now =
            periodsLater < 0
              ? a + periodsLater * DAY_MS + Math.floor(f * DAY_MS)
              : (({ start, end }) => start + Math.floor(f * (end - start)))(periodBounds(a, type, periodsLater));
          const due = duePeriods(a, type, charged, now, max);
          const started = refStartedPeriods(a, type, now);
          const expected: number[] = [];
          for (let k = 0; k < started; k += 1) {
            if (k >= charged && (max === null || k < max)) {
              expected.push(k);
            }
          }
          assert.deepEqual(due, expected);
          assert.equal(new Set(due).size, due.length, 'no index twice');
          for (const k of due) {
            assert.ok(periodBounds(a, type, k).start <= now, `period ${k} has not started`);
          }
        },
      ),
      RUNS,
    );
  });

  test('a clock that moves forward in jumps charges every started period exactly once, in order', () => {
    const jumps = fc.array(fc.integer({ min: 0, max: 120 * DAY_MS }), { minLength: 1, maxLength: 25 });
    const maxPeriods = fc.option(fc.integer({ min: 1, max: 40 }), { nil: null });
    fc.assert(
      fc.property(anchor, intervalType, jumps, maxPeriods, (a, type, steps, max) => {
        const charges: number[] = [];
        let now = a - DAY_MS;
        for (const step of steps) {
          now += step;
          // The engine charges what is due and records it before the next tick.
          charges.push(...duePeriods(a, type, charges.length, now, max));
        }
        const started = refStartedPeriods(a, type, now);
        const expectedCount = max === null ? started : Math.min(started, max);
        assert.deepEqual(
          charges,
          Array.from({ length: expectedCount }, (_, k) => k),
        );
      }),
      RUNS,
    );
  });

  test('retries are measured from the failure, not from each other', () => {
    const schedule = fc
      .uniqueArray(fc.integer({ min: 1, max: 60 }), { maxLength: 8 })
      .map((days) => [...days].sort((x, y) => x - y));
    fc.assert(
      fc.property(anyInstant, schedule, (failed, days) => {
        const at = retryDates(failed, days);
        assert.deepEqual(
          at.map((t) => (t - failed) / DAY_MS),
          days,
        );
        assert.ok(at.every((t, i) => i === 0 || t > (at[i - 1] ?? Number.POSITIVE_INFINITY)));
      }),
      RUNS,
    );
  });
});
