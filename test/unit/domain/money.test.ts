import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { CurrencyTable, DEFAULT_CURRENCIES } from '../../../src/domain/currencies/currency.ts';
import { MAX_USD_CENTS, MIN_USD_CENTS, parseBoundedAmount } from '../../../src/domain/shared/amount-rules.ts';
import type { Rate } from '../../../src/domain/shared/money.ts';
import {
  compareUsdValue,
  convertMinor,
  decimalToMinor,
  formatMinor,
  fromMinorUnits,
  parseDecimal,
  parseRate,
  toMinorUnits,
} from '../../../src/domain/shared/money.ts';

// INTERFACE.md §1: amounts arrive as JSON numbers in major units and are converted once, from
// the number's shortest decimal string, rounded half-up to the currency's decimals; floats
// never touch money arithmetic. Every property below is checked against a reference written
// with strings and BigInt only.

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_115);
const RUNS = { seed: SEED, numRuns: 2_000 };

// ---------------------------------------------------------------------------------------------
// The reference: exact rationals from decimal text, by hand.

type Rational = { n: bigint; d: bigint };

const abs = (x: bigint): bigint => (x < 0n ? -x : x);
const pow10 = (k: number): bigint => 10n ** BigInt(k);

function gcd(a: bigint, b: bigint): bigint {
  let [x, y] = [abs(a), abs(b)];
  while (y !== 0n) {
    [x, y] = [y, x % y];
  }
  return x;
}

function rational(n: bigint, d: bigint): Rational {
  assert.notEqual(d, 0n);
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (sign * n) / g, d: (sign * d) / g };
}

function compareRational(a: Rational, b: Rational): -1 | 0 | 1 {
  const diff = rational(a.n * b.d - b.n * a.d, a.d * b.d);
  return diff.n < 0n ? -1 : diff.n > 0n ? 1 : 0;
}

/** `-12.5e-3` → -125/10000, by splitting the text: no parsing library, no float. */
function exactDecimal(text: string): Rational {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]?\d+))?$/.exec(text);
  assert.ok(m, `not a decimal literal: ${text}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  const digits = BigInt(`${whole}${fraction}`) * (sign === '-' ? -1n : 1n);
  const scale = fraction.length - Number(exponent);
  return scale >= 0 ? rational(digits, pow10(scale)) : rational(digits * pow10(-scale), 1n);
}

/** Rounds a rational to an integer, halves away from zero (half-up for positive amounts). */
function roundHalfAwayFromZero(r: Rational): bigint {
  const q = abs(r.n) / r.d;
  const rest = abs(r.n) % r.d;
  const rounded = rest * 2n >= r.d ? q + 1n : q;
  return r.n < 0n ? -rounded : rounded;
}

function referenceMinor(text: string, decimals: number): bigint {
  const value = exactDecimal(text);
  return roundHalfAwayFromZero(rational(value.n * pow10(decimals), value.d));
}

const rateValue = (rate: Rate): Rational => rational(rate.units, pow10(rate.scale));

// ---------------------------------------------------------------------------------------------
// Generators.

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
/** Numbers clients actually send: decimal text with up to 20 digits, read as a double. */
const decimalLikeNumber = fc
  .tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 20 }))
  .map(([digits, scale]) => Number(`${digits < 0n ? '-' : ''}${abs(digits)}e-${scale}`));
const amountNumber = fc.oneof(finiteDouble, decimalLikeNumber, decimalLikeNumber);
const moneyDecimals = fc.constantFrom(0, 2, 6, 8, 18);
const rate: fc.Arbitrary<Rate> = fc.record({
  units: fc.bigInt({ min: 1n, max: 10n ** 12n }),
  scale: fc.integer({ min: 0, max: 12 }),
});
const currency = fc.record({ decimals: fc.integer({ min: 0, max: 18 }), rate });

describe('money: parsing and rounding', () => {
  test('parseDecimal reads String(n) back exactly for every finite double', () => {
    fc.assert(
      fc.property(finiteDouble, (n) => {
        const text = String(n);
        const d = parseDecimal(text);
        assert.ok(d, text);
        const rebuilt = Number(`${d.negative ? '-' : ''}${d.digits}e-${d.scale}`);
        assert.ok(rebuilt === n, `${text} → ${JSON.stringify({ ...d, digits: String(d.digits) })} → ${rebuilt}`);
        const exact = exactDecimal(text);
        assert.equal(compareRational(rational(d.negative ? -d.digits : d.digits, pow10(d.scale)), exact), 0, text);
      }),
      RUNS,
    );
  });

  test('toMinorUnits rounds the shortest decimal string half-up, never the binary double', () => {
    fc.assert(
      fc.property(amountNumber, moneyDecimals, (n, decimals) => {
        assert.equal(toMinorUnits(n, decimals), referenceMinor(String(n), decimals), `${String(n)} at ${decimals}`);
      }),
      RUNS,
    );
  });

  test('toMinorUnits on the classic float traps gives the decimal answer', () => {
    const cases: [number, number, bigint][] = [
      [1.005, 2, 101n],
      [1.255, 2, 126n],
      [0.615, 2, 62n],
      [16.9, 2, 1690n],
      [6.896551724137931, 2, 690n],
      [0.095, 2, 10n],
      [0.0949, 2, 9n],
      [2.5, 0, 3n],
      [0.5, 0, 1n],
      [0.4999999999999999, 0, 0n],
      [1e-7, 2, 0n],
      [1e-7, 8, 10n],
      [123456.1234565, 6, 123456123457n],
      [0.1 + 0.2, 2, 30n],
      [-1.005, 2, -101n],
      [-0, 2, 0n],
      [1e21, 2, 10n ** 23n],
      [0.000029, 18, 29_000_000_000_000n],
    ];
    for (const [n, decimals, expected] of cases) {
      assert.equal(toMinorUnits(n, decimals), expected, `${String(n)} at ${decimals}`);
    }
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]) {
      assert.throws(() => toMinorUnits(bad, 2), RangeError);
    }
  });

  test('formatMinor and fromMinorUnits are the inverses of parsing and toMinorUnits', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (minor, decimals) => {
          const text = formatMinor(minor, decimals);
          assert.match(text, decimals === 0 ? /^-?\d+$/ : new RegExp(`^-?\\d+\\.\\d{${decimals}}$`), text);
          const parsed = parseDecimal(text);
          assert.ok(parsed, text);
          assert.equal(decimalToMinor(parsed, decimals), minor, text);
          assert.equal(referenceMinor(text, decimals), minor, text);
        },
      ),
      RUNS,
    );
    // Through a JSON number: exact while the amount has at most 15 significant digits.
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 15n - 1n), max: 10n ** 15n - 1n }), moneyDecimals, (minor, decimals) => {
        const wire = fromMinorUnits(minor, decimals);
        assert.equal(toMinorUnits(wire, decimals), minor, `${minor} at ${decimals} → ${wire}`);
      }),
      RUNS,
    );
  });
});

describe('money: comparing and converting', () => {
  test('compareUsdValue agrees with an exact rational comparison', () => {
    const equalCase = fc.tuple(currency, fc.bigInt({ min: 0n, max: 10n ** 9n })).map(([c, cents]) => {
      // The minor amount worth exactly `cents`, when the currency can express it.
      const r = rational(cents * c.rate.units * pow10(c.decimals), 100n * pow10(c.rate.scale));
      return { c, cents, minor: r.d === 1n ? r.n : r.n / r.d };
    });
    const anyCase = fc
      .tuple(currency, fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.bigInt({ min: 0n, max: 10n ** 12n }))
      .map(([c, minor, cents]) => ({ c, cents, minor }));
    fc.assert(
      fc.property(fc.oneof(equalCase, anyCase), ({ c, cents, minor }) => {
        const usd = rational(minor * pow10(c.rate.scale), pow10(c.decimals) * c.rate.units);
        const expected = compareRational(usd, rational(cents, 100n));
        assert.equal(compareUsdValue(minor, c.decimals, c.rate, cents), expected);
      }),
      RUNS,
    );
  });

  test('convertMinor equals the exact conversion through USD rounded half-up', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), currency, currency, (minor, from, to) => {
        const value = rational(minor, pow10(from.decimals)); // major units of `from`
        const usd = rational(value.n * rateValue(from.rate).d, value.d * rateValue(from.rate).n);
        const target = rational(usd.n * rateValue(to.rate).n * pow10(to.decimals), usd.d * rateValue(to.rate).d);
        assert.equal(convertMinor(minor, from, to), roundHalfAwayFromZero(target));
      }),
      RUNS,
    );
  });

  test('convertMinor there and back lands within 1 minor unit when the target unit is worth no more', () => {
    const finerTarget = fc.tuple(currency, currency).filter(([from, to]) => {
      // One target minor unit is worth 1 / (10^td · rate_to) USD; it must not exceed the source's.
      const fromUnit = rational(pow10(from.rate.scale), pow10(from.decimals) * from.rate.units);
      const toUnit = rational(pow10(to.rate.scale), pow10(to.decimals) * to.rate.units);
      return compareRational(toUnit, fromUnit) <= 0;
    });
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 15n }), finerTarget, (minor, [from, to]) => {
        const back = convertMinor(convertMinor(minor, from, to), to, from);
        assert.ok(abs(back - minor) <= 1n, `${minor} → ${back}`);
      }),
      RUNS,
    );
    // And for every pair of the default table, in the direction that does not lose precision.
    const table = DEFAULT_CURRENCIES.map((c) => ({
      code: c.code,
      decimals: c.decimals,
      rate: parseRate(c.usd_rate) ?? assert.fail(c.code),
    }));
    for (const from of table) {
      for (const to of table) {
        const fromUnit = rational(pow10(from.rate.scale), pow10(from.decimals) * from.rate.units);
        const toUnit = rational(pow10(to.rate.scale), pow10(to.decimals) * to.rate.units);
        if (compareRational(toUnit, fromUnit) > 0) {
          continue;
        }
        for (const minor of [0n, 1n, 9n, 10n, 99n, 12_345n, 300_000n, 10n ** 12n]) {
          const back = convertMinor(convertMinor(minor, from, to), to, from);
          assert.ok(abs(back - minor) <= 1n, `${from.code} ${minor} → ${to.code} → ${back}`);
        }
      }
    }
  });
});

describe('amount rules: the USD bound', () => {
  const currencies = new CurrencyTable(DEFAULT_CURRENCIES);

  test('every default currency accepts exactly the amounts worth 0.10 to 3000.00 USD, both ends included', () => {
    for (const def of DEFAULT_CURRENCIES) {
      const c = currencies.get(def.code) ?? assert.fail(def.code);
      const perUsdMinor = rational(c.usdRate.units * pow10(c.decimals), pow10(c.usdRate.scale));
      const loExact = rational(perUsdMinor.n * MIN_USD_CENTS, perUsdMinor.d * 100n);
      const hiExact = rational(perUsdMinor.n * MAX_USD_CENTS, perUsdMinor.d * 100n);
      // The smallest and largest amounts the currency can express inside the bound.
      const lo = loExact.n / loExact.d + (loExact.n % loExact.d === 0n ? 0n : 1n);
      const hi = hiExact.n / hiExact.d;

      for (const [minor, expected] of [
        [lo, true],
        [hi, true],
        [lo - 1n, false],
        [hi + 1n, false],
      ] as const) {
        const insideLow = compareUsdValue(minor, c.decimals, c.usdRate, MIN_USD_CENTS) >= 0;
        const insideHigh = compareUsdValue(minor, c.decimals, c.usdRate, MAX_USD_CENTS) <= 0;
        assert.equal(insideLow && insideHigh, expected, `${def.code} ${formatMinor(minor, c.decimals)}`);
      }
      // Where 0.10 and 3000.00 USD are expressible, they are the ends themselves (inclusive).
      if (loExact.d === 1n) {
        assert.equal(compareUsdValue(lo, c.decimals, c.usdRate, MIN_USD_CENTS), 0, def.code);
      }
      if (hiExact.d === 1n) {
        assert.equal(compareUsdValue(hi, c.decimals, c.usdRate, MAX_USD_CENTS), 0, def.code);
      }

      // Through the wire: the JSON number of each end is accepted as that amount.
      for (const minor of [lo, hi]) {
        const wire = Number(formatMinor(minor, c.decimals));
        const result = parseBoundedAmount('amount', wire, def.code, currencies);
        assert.deepEqual(result, { ok: true, minor }, `${def.code} ${wire}`);
      }
      // One step outside (a step the double can carry), refused with a message naming the field.
      const step = c.decimals > 8 ? pow10(c.decimals - 8) : 1n;
      for (const minor of [lo - step, hi + step]) {
        const wire = Number(formatMinor(minor, c.decimals));
        const result = parseBoundedAmount('amount', wire, def.code, currencies);
        assert.equal(result.ok, false, `${def.code} ${wire} must be refused`);
        if (!result.ok) {
          assert.ok(
            result.messages.length > 0 && result.messages.every((m) => m.startsWith('amount ')),
            JSON.stringify(result),
          );
        }
      }
    }
  });

  test('USD amounts are bounded after half-up rounding: 0.095 and 3000.004 pass, 0.0949 and 3000.005 do not', () => {
    const cases: [number, bigint | null][] = [
      [0.1, 10n],
      [0.095, 10n],
      [0.0949, null],
      [0.09, null],
      [3000, 300_000n],
      [3000.004, 300_000n],
      [3000.005, null],
      [3000.01, null],
      [0, null],
      [-0, null],
      [-5, null],
    ];
    for (const [wire, expected] of cases) {
      const result = parseBoundedAmount('amount', wire, 'USD', currencies);
      assert.deepEqual(
        result.ok ? result.minor : null,
        expected,
        `${wire}: ${JSON.stringify(result, (_k, v) => (typeof v === 'bigint' ? String(v) : v))}`,
      );
    }
    const fee = parseBoundedAmount('signup_fee_amount', 0, 'USD', currencies, { allowZero: true });
    assert.deepEqual(fee, { ok: true, minor: 0n });
  });

  test('an amount in a currency the table does not know is never accepted', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 6 }).filter((code) => !currencies.get(code)),
        fc.double({ min: 0.1, max: 3000, noNaN: true }),
        (code, wire) => {
          assert.equal(parseBoundedAmount('amount', wire, code, currencies).ok, false);
        },
      ),
      { seed: SEED, numRuns: 200 },
    );
  });
});
