import type { IntervalType } from './payment-link.ts';

// The billing calendar of a subscription, as pure UTC arithmetic on epoch milliseconds.
//
// Every date is derived from the anchor (the first billing date) and a period index, never
// from the previous period's date. Chaining would let month-end clamping drift for good:
// Jan 31 + 1 month is Feb 28, and Feb 28 + 1 month is Mar 28, whereas the payer subscribed on
// the 31st and expects Mar 31. Anchoring also makes a period's dates a function of
// (anchor, index) alone, so a scheduler that crashed or skipped time recomputes exactly the
// same periods, which is what "charge each (subscription, period) once" keys on.

/** One UTC day. UTC has no daylight saving and JavaScript time has no leap seconds, so every day is this long. */
export const DAY_MS = 86_400_000;

/** One week: seven UTC days. */
export const WEEK_MS = 7 * DAY_MS;

/** Days after a failed renewal at which it is retried, each measured from the failure (issue 5). */
export const DEFAULT_RETRY_DAYS: readonly number[] = [1, 3, 5];

/** A billing period: `start` inclusive, `end` exclusive (the next period's `start`), in epoch milliseconds. */
export type PeriodBounds = {
  /** First instant of the period; the charge for the period is due at this time. */
  readonly start: number;
  /** First instant of the next period. */
  readonly end: number;
};

/** The range of an ECMAScript `Date` (±100,000,000 days around the epoch). */
const MAX_EPOCH_MS = 8.64e15;

function assertEpochMs(name: string, ms: number): void {
  if (!Number.isInteger(ms) || Math.abs(ms) > MAX_EPOCH_MS) {
    throw new RangeError(`${name} must be an integer epoch time in milliseconds, got ${ms}`);
  }
}

function assertCount(name: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${name} must be a non-negative integer, got ${n}`);
  }
}

function inRange(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(ms) <= MAX_EPOCH_MS;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** `month0` is 0–11. */
function daysInMonth(year: number, month0: number): number {
  if (month0 === 1) {
    return isLeapYear(year) ? 29 : 28;
  }
  // 31-day months alternate with 30-day ones from January to July and again from August.
  return 30 + ((month0 <= 6 ? month0 + 1 : month0) % 2);
}

/** Milliseconds since the start of the UTC day; non-negative also before 1970. */
function timeOfDay(ms: number): number {
  return ((ms % DAY_MS) + DAY_MS) % DAY_MS;
}

/**
 * `startMs` plus `months` calendar months, the day clamped to the target month's length and
 * the time of day kept. May return a value outside the Date range (±Infinity or beyond
 * MAX_EPOCH_MS); the public functions check.
 */
function addMonths(startMs: number, months: number): number {
  const start = new Date(startMs);
  const total = start.getUTCFullYear() * 12 + start.getUTCMonth() + months;
  const year = Math.floor(total / 12);
  const month0 = total - year * 12;
  const day = Math.min(start.getUTCDate(), daysInMonth(year, month0));
  // setUTCFullYear rather than Date.UTC, which reads years 0–99 as 1900–1999.
  const target = new Date(0);
  target.setUTCFullYear(year, month0, day);
  const midnight = target.getTime();
  if (Number.isNaN(midnight)) {
    return months < 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  }
  return midnight + timeOfDay(startMs);
}

/** addIntervals without the range check, for searches that step one past the last representable period. */
function shift(startMs: number, type: IntervalType, count: number): number {
  switch (type) {
    case 'DAY':
      return startMs + count * DAY_MS;
    case 'WEEK':
      return startMs + count * WEEK_MS;
    case 'MONTH':
      return addMonths(startMs, count);
    case 'YEAR':
      return addMonths(startMs, count * 12);
  }
}

/**
 * The start of period `count` of a schedule anchored at `startMs`: `count` intervals later,
 * counted from the anchor, in UTC, with the time of day kept.
 *
 * MONTH and YEAR clamp the day to the target month's length (Jan 31 + 1 month = Feb 28 or 29,
 * + 2 months = Mar 31, + 3 months = Apr 30; Feb 29 + 1 year = Feb 28, + 4 years = Feb 29).
 * Because the day is clamped per target month, `addIntervals(addIntervals(s, t, a), t, b)` can
 * be earlier than `addIntervals(s, t, a + b)` (the clamp of the first step is carried into the
 * second): always compute from the anchor, never from the previous period.
 *
 * @throws RangeError when `startMs` is not an integer in the Date range, `count` is not a
 * non-negative integer, or the result is outside the Date range.
 */
export function addIntervals(startMs: number, type: IntervalType, count: number): number {
  assertEpochMs('startMs', startMs);
  assertCount('count', count);
  const ms = shift(startMs, type, count);
  if (!inRange(ms)) {
    throw new RangeError(`${count} × ${type} after ${startMs} is outside the representable dates`);
  }
  return ms;
}

/** Period `periodIndex` (0-based) of the schedule anchored at `anchorMs`: `[start of k, start of k + 1)`. */
export function periodBounds(anchorMs: number, type: IntervalType, periodIndex: number): PeriodBounds {
  assertCount('periodIndex', periodIndex);
  return { start: addIntervals(anchorMs, type, periodIndex), end: addIntervals(anchorMs, type, periodIndex + 1) };
}

/**
 * When a trial that starts at `startMs` ends, which is when the first period is billed and so
 * the billing anchor. Without a trial (`trialType` null, or a count of 0) that is `startMs`.
 * The count is ignored when the type is null: a plan stores `trialIntervalCount: 0` then, and
 * a count without a unit cannot mean anything else.
 */
export function trialEnd(startMs: number, trialType: IntervalType | null, trialCount: number): number {
  assertEpochMs('startMs', startMs);
  if (trialType === null) {
    return startMs;
  }
  return addIntervals(startMs, trialType, trialCount);
}

/** Whole intervals between the calendar positions of two dates; within one of the true index. */
function estimateIndex(anchorMs: number, type: IntervalType, atMs: number): number {
  switch (type) {
    case 'DAY':
      return Math.floor((atMs - anchorMs) / DAY_MS);
    case 'WEEK':
      return Math.floor((atMs - anchorMs) / WEEK_MS);
    case 'MONTH':
    case 'YEAR': {
      const anchor = new Date(anchorMs);
      const at = new Date(atMs);
      const months = (at.getUTCFullYear() - anchor.getUTCFullYear()) * 12 + (at.getUTCMonth() - anchor.getUTCMonth());
      return type === 'MONTH' ? months : Math.floor(months / 12);
    }
  }
}

/**
 * The index of the period that contains `atMs`, or −1 before the anchor. Runs in constant
 * time: the index is estimated from the calendar difference, then corrected by the at most one
 * or two steps that clamping and the time of day can put it off.
 */
export function periodIndexAt(anchorMs: number, type: IntervalType, atMs: number): number {
  assertEpochMs('anchorMs', anchorMs);
  assertEpochMs('atMs', atMs);
  if (atMs < anchorMs) {
    return -1;
  }
  let k = Math.max(0, estimateIndex(anchorMs, type, atMs));
  while (k > 0 && shift(anchorMs, type, k) > atMs) {
    k -= 1;
  }
  while (shift(anchorMs, type, k + 1) <= atMs) {
    k += 1;
  }
  return k;
}

/**
 * The periods to charge now, in order: every period that has started by `nowMs` (its start is
 * at or before it) and is not among the first `periodsCharged`, up to the plan's
 * `maxPeriods` (its `interval_count`; null when the plan runs until cancelled).
 *
 * After a clock jump over several periods this lists each skipped one, so the engine catches up
 * period by period rather than charging once for the lot. `anchorMs` is the first billing date
 * (see {@link trialEnd}); `periodsCharged` counts the periods already charged or under way,
 * including the first one paid at checkout. To open push-method renewals ahead of time, pass
 * `now + lead` as `nowMs`.
 */
export function duePeriods(
  anchorMs: number,
  type: IntervalType,
  periodsCharged: number,
  nowMs: number,
  maxPeriods: number | null,
): number[] {
  assertCount('periodsCharged', periodsCharged);
  if (maxPeriods !== null) {
    assertCount('maxPeriods', maxPeriods);
  }
  const lastStarted = periodIndexAt(anchorMs, type, nowMs);
  const last = maxPeriods === null ? lastStarted : Math.min(lastStarted, maxPeriods - 1);
  const due: number[] = [];
  for (let k = periodsCharged; k <= last; k += 1) {
    due.push(k);
  }
  return due;
}

/**
 * When to retry a renewal that failed at `failedAtMs`: one time per entry of `retryDays`, each
 * that many days after the failure (not after the previous retry), rounded to the millisecond
 * so fractional days are allowed.
 *
 * @throws RangeError unless the days are positive, finite and strictly increasing: a schedule
 * out of order or with a retry at the failure itself is a configuration mistake, and silently
 * sorting it would hide that.
 */
export function retryDates(failedAtMs: number, retryDays: readonly number[] = DEFAULT_RETRY_DAYS): number[] {
  assertEpochMs('failedAtMs', failedAtMs);
  let previous = 0;
  return retryDays.map((days) => {
    if (!Number.isFinite(days) || days <= previous) {
      throw new RangeError(`retry days must be positive and strictly increasing, got [${retryDays.join(', ')}]`);
    }
    previous = days;
    const at = Math.round(failedAtMs + days * DAY_MS);
    if (!inRange(at)) {
      throw new RangeError(`a retry ${days} days after ${failedAtMs} is outside the representable dates`);
    }
    return at;
  });
}
