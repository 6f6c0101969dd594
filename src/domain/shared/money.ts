/**
 * Money inside the service is an integer count of minor units (`bigint`) with its currency.
 * The wire carries JSON numbers in major units; they are converted exactly once, here, from
 * the number's shortest decimal representation, never by float multiplication.
 */
export type Money = { amountMinor: bigint; currency: string };

/** An exact decimal: value = (negative ? -1 : 1) * digits / 10^scale. */
export type Decimal = { negative: boolean; digits: bigint; scale: number };

const DECIMAL_TEXT = /^([+-])?(\d+)(?:\.(\d*))?(?:[eE]([+-]?\d+))?$|^([+-])?\.(\d+)(?:[eE]([+-]?\d+))?$/;

/** Parses a decimal literal (`16.9`, `6.896551724137931`, `1e-7`, `-0`) exactly. */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL_TEXT.exec(text.trim());
  if (!m) {
    return null;
  }
  const sign = m[1] ?? m[5];
  const intPart = m[2] ?? '';
  const fracPart = m[3] ?? m[6] ?? '';
  const exponent = Number(m[4] ?? m[7] ?? '0');
  if (!Number.isSafeInteger(exponent) || Math.abs(exponent) > 400) {
    return null;
  }
  const digits = BigInt(`${intPart}${fracPart}` || '0');
  let scale = fracPart.length - exponent;
  let value = digits;
  if (scale < 0) {
    value = digits * 10n ** BigInt(-scale);
    scale = 0;
  }
  return { negative: sign === '-' && value !== 0n, digits: value, scale };
}

/** Integer division rounding half away from zero (half-up for the positive amounts money uses). */
export function divRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) {
    throw new RangeError('division by zero');
  }
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

/** Rounds an exact decimal half-up to `decimals` places and returns it in minor units. */
export function decimalToMinor(value: Decimal, decimals: number): bigint {
  const signed = value.negative ? -value.digits : value.digits;
  if (value.scale <= decimals) {
    return signed * 10n ** BigInt(decimals - value.scale);
  }
  return divRoundHalfUp(signed, 10n ** BigInt(value.scale - decimals));
}

/**
 * A wire amount (JSON number) to minor units, rounded half-up to the currency's decimals.
 * `String(n)` gives the shortest decimal that reads back as the same double, which is what
 * the client meant when it wrote `6.896551724137931`.
 */
export function toMinorUnits(value: number, decimals: number): bigint {
  if (!Number.isFinite(value)) {
    throw new RangeError('amount must be a finite number');
  }
  const parsed = parseDecimal(String(value));
  if (!parsed) {
    throw new RangeError('amount must be a decimal number');
  }
  return decimalToMinor(parsed, decimals);
}

/** `1690n, 2` → `"16.90"`. */
export function formatMinor(minor: bigint, decimals: number): string {
  const negative = minor < 0n;
  const abs = negative ? -minor : minor;
  const text = abs.toString().padStart(decimals + 1, '0');
  const whole = decimals === 0 ? text : text.slice(0, -decimals);
  const frac = decimals === 0 ? '' : `.${text.slice(-decimals)}`;
  return `${negative ? '-' : ''}${whole}${frac}`;
}

/** Minor units back to the wire's JSON number in major units (`1690n, 2` → `16.9`). */
export function fromMinorUnits(minor: bigint, decimals: number): number {
  return Number(formatMinor(minor, decimals));
}

/** An exchange rate as an exact decimal: units of a currency per 1 USD. */
export type Rate = { units: bigint; scale: number };

export function parseRate(text: string): Rate | null {
  const d = parseDecimal(text);
  if (!d || d.negative || d.digits === 0n) {
    return null;
  }
  return { units: d.digits, scale: d.scale };
}

export function rateToNumber(rate: Rate): number {
  return Number(formatMinor(rate.units, rate.scale));
}

/**
 * Compares the USD value of `minor` (in a currency with `decimals` and `rate`) with a USD
 * amount given in cents: returns -1, 0 or 1. Exact: cross-multiplied in integers.
 */
export function compareUsdValue(minor: bigint, decimals: number, rate: Rate, usdCents: bigint): -1 | 0 | 1 {
  // minor / 10^decimals / (units / 10^scale)  vs  usdCents / 100
  const left = minor * 10n ** BigInt(rate.scale) * 100n;
  const right = usdCents * rate.units * 10n ** BigInt(decimals);
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Converts minor units between currencies through USD, rounded half-up to the target's decimals. */
export function convertMinor(
  minor: bigint,
  from: { decimals: number; rate: Rate },
  to: { decimals: number; rate: Rate },
): bigint {
  // minor / 10^fd / (fu / 10^fs) * (tu / 10^ts) * 10^td
  const numerator = minor * 10n ** BigInt(from.rate.scale) * to.rate.units * 10n ** BigInt(to.decimals);
  const denominator = 10n ** BigInt(from.decimals) * from.rate.units * 10n ** BigInt(to.rate.scale);
  return divRoundHalfUp(numerator, denominator);
}
