/** The only source of time for domain code; tests and test mode inject their own. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that moves only when told to. */
export class ManualClock implements Clock {
  private current: number;

  constructor(start: Date | string = '2026-01-15T12:00:00Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): void {
    this.current += ms;
  }

  set(date: Date | string): void {
    this.current = new Date(date).getTime();
  }
}

const DAY_MS = 86_400_000;
/** `yyyy-MM-ddT` of each day formatted lately, by days since the epoch; bounded (see toWireTime). */
const dayPrefixes = new Map<number, string>();

function twoDigits(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

/**
 * Wire format: RFC 3339 UTC with second precision, `2024-06-12T15:26:47Z`.
 *
 * Every timestamp of every answer and event goes through here (several per answer), so the
 * date part is formatted once per day seen and only the time of day is written out
 * (`Date#toISOString` costs several times more; docs/performance.md). Same output as
 * `toISOString().slice(0, 19) + 'Z'`, including its RangeError for a time that is not a valid date.
 */
export function toWireTime(at: number | Date): string {
  // Truncated toward zero, as a Date does with a fractional time.
  const ms = typeof at === 'number' ? Math.trunc(at) : at.getTime();
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    const iso = new Date(day * DAY_MS).toISOString();
    prefix = iso.slice(0, iso.indexOf('T') + 1);
    if (dayPrefixes.size >= 1024) {
      dayPrefixes.clear();
    }
    dayPrefixes.set(day, prefix);
  }
  const second = Math.floor((ms - day * DAY_MS) / 1000);
  return `${prefix}${twoDigits(Math.floor(second / 3600))}:${twoDigits(Math.floor(second / 60) % 60)}:${twoDigits(second % 60)}Z`;
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?([Zz]|[+-](\d{2}):(\d{2}))$/;

/**
 * Strict RFC 3339 parse: impossible calendar dates (`2024-02-30`) and out-of-range offsets are
 * rejected instead of being rolled over the way `Date.parse` does. Returns epoch ms, or null.
 */
export function parseRfc3339(text: string): number | null {
  const m = RFC3339.exec(text);
  if (!m) {
    return null;
  }
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return null;
  }
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) {
    return null;
  }
  let offsetMinutes = 0;
  const zone = m[8] ?? 'Z';
  if (zone !== 'Z' && zone !== 'z') {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) {
      return null;
    }
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  const fraction = m[7] ? Math.floor(Number(`0${m[7]}`) * 1000) : 0;
  return Date.UTC(year, month - 1, day, hour, minute, second, fraction) - offsetMinutes * 60_000;
}
