import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { toWireTime } from '../../../src/domain/shared/clock.ts';

// INTERFACE.md §1: timestamps go out as `yyyy-MM-dd'T'HH:mm:ss'Z'`, UTC, second precision.
// The reference is the platform's own ISO formatting, cut to the second.
const reference = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

// Years 0000 to 9999: the range the four-digit wire format can say.
const YEAR_0 = new Date('0000-01-01T00:00:00.000Z').getTime();
const YEAR_9999_END = new Date('9999-12-31T23:59:59.999Z').getTime();

test('every instant from year 0 to 9999 is written as its UTC second, as toISOString says it', () => {
  fc.assert(
    fc.property(fc.integer({ min: YEAR_0, max: YEAR_9999_END }), (ms) => {
      assert.equal(toWireTime(ms), reference(ms));
      assert.equal(toWireTime(new Date(ms)), reference(ms));
    }),
    { numRuns: 20_000 },
  );
});

test('instants around midnights, month ends, leap days and the epoch keep their own date', () => {
  const edges = [
    Date.UTC(1970, 0, 1),
    Date.UTC(2024, 1, 29),
    Date.UTC(2024, 2, 1),
    Date.UTC(2026, 11, 31),
    Date.UTC(2027, 0, 1),
    Date.UTC(2100, 1, 28),
    Date.UTC(2000, 1, 29),
  ];
  for (const edge of edges) {
    for (const offset of [-1001, -1000, -999, -1, 0, 1, 999, 1000]) {
      assert.equal(toWireTime(edge + offset), reference(edge + offset), String(edge + offset));
    }
  }
  assert.equal(toWireTime(Date.UTC(2024, 5, 12, 15, 26, 47, 999)), '2024-06-12T15:26:47Z');
  // A fractional time is cut toward zero, as a Date cuts it.
  for (const fractional of [-0.5, -1000.5, 1.5, 999.9]) {
    assert.equal(toWireTime(fractional), reference(fractional), String(fractional));
  }
});

test('a time that is not a date is refused, as Date#toISOString refuses it', () => {
  for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 86_400_000]) {
    assert.throws(() => toWireTime(bad), RangeError);
    assert.throws(() => toWireTime(new Date(bad)), RangeError);
  }
});

test('many different days in turn are each written with their own date', () => {
  // More days than the formatter keeps, twice over: what it kept must never answer for another day.
  const days = Array.from({ length: 3000 }, (_, i) => Date.UTC(2020, 0, 1) + ((i * 7919) % 5000) * 86_400_000 + i);
  for (const ms of [...days, ...days]) {
    assert.equal(toWireTime(ms), reference(ms));
  }
});
