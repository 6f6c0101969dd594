import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { DEFAULT_CURRENCIES } from '../../src/domain/currencies/currency.ts';
import type { ErrorCode } from '../../src/domain/shared/errors.ts';
import { ERROR_CODES, statusFor } from '../../src/domain/shared/errors.ts';
import { createPaymentLink, errorBody, paymentBody } from '../support/builders.ts';
import type { Backend, BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';
import { buildTestApp, describeBackends } from '../support/test-app.ts';

// RELIABILITY.md R12: malformed requests to every write endpoint must never produce a 5xx, a
// body outside the error schema, a leaked internal, or a polluted prototype; and the companion
// property: valid requests within the spec's bounds are never refused, and each single broken
// rule is refused with 400 naming its field. Seeded: FUZZ_SEED=<n> reproduces a run, and
// FUZZ_REQUESTS=<n> changes the size (soak runs).

const SEED = Number(process.env.FUZZ_SEED ?? 20_260_115);
const MALFORMED: Record<Backend, number> = {
  sqlite: Number(process.env.FUZZ_REQUESTS ?? 10_000),
  postgres: Math.round(Number(process.env.FUZZ_REQUESTS ?? 10_000) / 5),
};
const VALID: Record<Backend, number> = { sqlite: 2_000, postgres: 500 };
const CONCURRENCY = 16;
const CHUNK = 250;
const FUZZ_ENV: BuildOptions = {
  // The fuzzer sends its share of bad credentials; the auth-failure limiter is tested in rate-limit.test.ts.
  env: { AUTH_FAILURES_PER_MINUTE: '1000000', RATE_LIMIT_PER_SECOND: '1000000' },
};

const JSON_TYPE = 'application/json; charset=utf-8';
const ALLOWED_ERROR_STATUSES = new Set([400, 401, 404, 405, 409, 413, 415, 422, 429]);
const LEAK_PATTERNS: readonly RegExp[] = [/\bat [^\n"]*\.ts:\d/, /node_modules/, /SQLITE_/, /SELECT /, /\/work\//];
const REPORTS_DIR = fileURLToPath(new URL('../../reports/', import.meta.url));

// ---------------------------------------------------------------------------------------------
// A JSON model that can say what JSON.stringify cannot: raw number text (1e309, -0), duplicate
// keys, `__proto__` members, and nesting deeper than any parser should be asked to recurse.

class Raw {
  constructor(readonly text: string) {}

  [fc.toStringMethod](): string {
    return this.text.length > 200 ? `Raw(${this.text.slice(0, 40)}… ${this.text.length} chars)` : `Raw(${this.text})`;
  }
}

class Obj {
  constructor(readonly entries: readonly (readonly [string, Wire])[]) {}

  [fc.toStringMethod](): string {
    const text = toJson(this);
    return text.length > 2000 ? `${text.slice(0, 2000)}… (${text.length} chars)` : text;
  }
}

type Wire = null | boolean | number | string | Raw | Obj | readonly Wire[];

function toJson(value: Wire): string {
  if (value instanceof Raw) {
    return value.text;
  }
  if (value instanceof Obj) {
    return `{${value.entries.map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`).join(',')}}`;
  }
  if (Array.isArray(value)) {
    return `[${value.map((v: Wire) => toJson(v)).join(',')}]`;
  }
  return JSON.stringify(value);
}

function obj(record: Record<string, Wire | undefined>): Obj {
  return new Obj(Object.entries(record).filter((e): e is [string, Wire] => e[1] !== undefined));
}

function fromJsonValue(value: fc.JsonValue): Wire {
  if (value === null || typeof value !== 'object') {
    return value;
  }
  if (Array.isArray(value)) {
    return value.map(fromJsonValue);
  }
  return new Obj(Object.entries(value).map(([k, v]) => [k, fromJsonValue(v ?? null)] as const));
}

function getPath(body: Obj, path: string): Wire | undefined {
  const [head, ...rest] = path.split('.');
  const found = body.entries.find(([k]) => k === head)?.[1];
  if (rest.length === 0) {
    return found;
  }
  return found instanceof Obj ? getPath(found, rest.join('.')) : undefined;
}

/** A copy of `body` with `path` set to `value` (removed when undefined); missing parents are created. */
function setPath(body: Obj, path: string, value: Wire | undefined): Obj {
  const [head = '', ...rest] = path.split('.');
  let next: Wire | undefined = value;
  if (rest.length > 0) {
    const current = body.entries.find(([k]) => k === head)?.[1];
    next = setPath(current instanceof Obj ? current : new Obj([]), rest.join('.'), value);
  }
  const entries = body.entries.filter(([k]) => k !== head);
  return new Obj(next === undefined ? entries : [...entries, [head, next]]);
}

function appendEntry(body: Obj, key: string, value: Wire): Obj {
  return new Obj([...body.entries, [key, value]]);
}

// ---------------------------------------------------------------------------------------------
// Amounts within the spec's bounds, computed independently of the service's money code: the
// USD value must lie in [0.10, 3000.00] at the rate table (units of the currency per 1 USD).

type CurrencyBounds = {
  code: string;
  decimals: number;
  /** Generated amounts have at most `genDecimals` decimals (≤ 15 significant digits, exact as doubles). */
  genDecimals: number;
  lo: bigint;
  hi: bigint;
};

function decimalText(n: bigint, scale: number): string {
  const negative = n < 0n;
  const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
  const text = scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
  return negative ? `-${text}` : text;
}

const ceilDiv = (a: bigint, b: bigint): bigint => (a + b - 1n) / b;

const BOUNDS: readonly CurrencyBounds[] = DEFAULT_CURRENCIES.map((c) => {
  const [whole = '', fraction = ''] = c.usd_rate.split('.');
  const units = BigInt(`${whole}${fraction}`);
  const rateScale = 10n ** BigInt(fraction.length);
  const genDecimals = Math.min(c.decimals, 8);
  // One generated unit is 10^(decimals - genDecimals) minor units.
  const perGenUnit = 10n ** BigInt(c.decimals - genDecimals);
  const minorLo = ceilDiv(10n * units * 10n ** BigInt(c.decimals), 100n * rateScale);
  const minorHi = (300_000n * units * 10n ** BigInt(c.decimals)) / (100n * rateScale);
  return {
    code: c.code,
    decimals: c.decimals,
    genDecimals,
    lo: ceilDiv(minorLo, perGenUnit),
    hi: minorHi / perGenUnit,
  };
});

const USD = BOUNDS.find((b) => b.code === 'USD') ?? assert.fail('USD is in the default table');

/** An amount the service must accept for `b`, with the number it must answer after rounding. */
function boundedAmount(b: CurrencyBounds): fc.Arbitrary<{ wire: number; expected: number }> {
  const exact = fc
    .oneof(
      { weight: 1, arbitrary: fc.constantFrom(b.lo, b.hi) },
      { weight: 8, arbitrary: fc.bigInt({ min: b.lo, max: b.hi }) },
    )
    .map((k) => {
      const n = Number(decimalText(k, b.genDecimals));
      return { wire: n, expected: n };
    });
  if (b.genDecimals !== b.decimals || b.hi - b.lo < 2n) {
    return exact;
  }
  // More decimals than the currency has: rounds half-up to k, which stays inside the bounds.
  const extra = fc
    .tuple(fc.bigInt({ min: b.lo + 1n, max: b.hi - 1n }), fc.integer({ min: 1, max: 6 }))
    .chain(([k, wanted]) => {
      const e = Math.max(1, Math.min(wanted, 15 - k.toString().length));
      const half = 5n * 10n ** BigInt(e - 1);
      return fc.bigInt({ min: -half, max: half - 1n }).map((delta) => ({
        wire: Number(decimalText(k * 10n ** BigInt(e) + delta, b.decimals + e)),
        expected: Number(decimalText(k, b.decimals)),
      }));
    });
  return fc.oneof({ weight: 3, arbitrary: exact }, { weight: 1, arbitrary: extra });
}

const currencyBounds: fc.Arbitrary<CurrencyBounds> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(USD) },
  { weight: 5, arbitrary: fc.constantFrom(...BOUNDS) },
);

// ---------------------------------------------------------------------------------------------
// Valid requests (the companion property, and the bases the mutations start from).

type Ctx = {
  nowMs: number;
  /** Active subscription definitions of the merchant (SUBSCRIPTION preferences point at them). */
  activeLinkIds: readonly string[];
  /** Definitions the archive endpoint may archive. */
  archiveLinkIds: readonly string[];
  archivedLinkId: string;
  foreignLinkId: string;
  /** A crypto method that serves every amount the USD bound allows, in every currency (INTERFACE §4). */
  universalMethodId: string;
};

type ValidRequest = {
  endpoint: 'preference' | 'subscription' | 'link' | 'archive';
  url: string;
  body: Obj | undefined;
  /** The amount the answer must carry, when the request sets one. */
  expectedAmount: number | null;
};

const NO_NUL = (s: string): boolean => !s.includes('\u0000');
// A NUL is refused by PostgreSQL text and stored by SQLite; see the TODO test below.
const anyText = (maxLength: number) =>
  fc.string({ unit: 'binary', maxLength }).filter((s) => NO_NUL(s) && s.length <= maxLength);
const nonBlankText = (maxLength: number) =>
  fc.string({ unit: 'binary', minLength: 1, maxLength }).filter((s) => NO_NUL(s) && s.trim() !== '');

const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const email = fc.emailAddress().filter((e) => e.length <= 254 && WHATWG_EMAIL.test(e));

const phone = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 8, maxLength: 15 }),
    fc.array(fc.constantFrom('', '', '', ' ', '-', '(', ')'), { minLength: 15, maxLength: 15 }),
  )
  .map(
    ([plus, digits, separators]) => `${plus ? '+' : ''}${digits.map((d, i) => `${d}${separators[i] ?? ''}`).join('')}`,
  );

const url = fc
  .webUrl({ validSchemes: ['https', 'http'], withQueryParameters: true, withFragments: true })
  .filter((u) => u.length <= 2048);

const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 2 });
const emptyOr = <T extends Wire>(arb: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 6, arbitrary: arb }, { weight: 1, arbitrary: fc.constantFrom<Wire>(null, '') });

const payer: fc.Arbitrary<Obj> = fc
  .record({
    email: optional(emptyOr(email)),
    firstName: optional(emptyOr(anyText(200))),
    nameSpelling: fc.constantFrom('first_name', 'name', 'both'),
    lastName: optional(emptyOr(anyText(200))),
    phone: optional(emptyOr(phone)),
    phoneSpelling: fc.constantFrom('phone_number', 'phone', 'both'),
  })
  .map((p) =>
    obj({
      email: p.email,
      first_name: p.nameSpelling === 'name' ? undefined : p.firstName,
      name: p.nameSpelling === 'first_name' ? undefined : p.firstName,
      last_name: p.lastName,
      phone_number: p.phoneSpelling === 'phone' ? undefined : p.phone,
      phone: p.phoneSpelling === 'phone_number' ? undefined : p.phone,
    }),
  );

const customUrls: fc.Arbitrary<Obj> = fc
  .record({
    status_changes_webhook: optional(emptyOr(url)),
    success_payment_redirect: optional(emptyOr(url)),
    error_payment_redirect: optional(emptyOr(url)),
  })
  .map((u) => obj(u));

/** Keys the body parser refuses anywhere, by policy (prototype pollution); see the fuzz cases. */
function hasPrototypeKey(value: fc.JsonValue): boolean {
  if (value === null || typeof value !== 'object') {
    return false;
  }
  if (Array.isArray(value)) {
    return value.some(hasPrototypeKey);
  }
  return Object.entries(value).some(([k, v]) => k === '__proto__' || k === 'constructor' || hasPrototypeKey(v ?? null));
}

/** Unknown members are ignored (old clients send them). */
const unknownMembers: fc.Arbitrary<[string, Wire][]> = fc.array(
  fc.tuple(
    fc.constantFrom('metadata', 'country_id', 'items', 'notes', 'client_reference'),
    fc
      .jsonValue({ maxDepth: 2 })
      .filter((v) => !hasPrototypeKey(v))
      .map(fromJsonValue),
  ),
  { maxLength: 2 },
);

const methodTypes = fc
  .subarray(['BANK_TRANSFER', 'CASH', 'CARD', 'PIX'])
  .chain((types) => fc.shuffledSubarray([...types, 'CRYPTO_ONCHAIN'], { minLength: types.length + 1 }));

function rfc3339(ms: number, offsetMinutes: number, withFraction: boolean): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const local = new Date(ms + offsetMinutes * 60_000).toISOString();
  const base = `${local.slice(0, 19)}${withFraction ? local.slice(19, 23) : ''}`;
  if (offsetMinutes === 0) {
    return `${base}Z`;
  }
  const abs = Math.abs(offsetMinutes);
  return `${base}${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

function expiration(ctx: Ctx): fc.Arbitrary<string> {
  const week = 7 * 86_400;
  return fc
    .tuple(
      fc.oneof(fc.integer({ min: 1, max: week - 1 }), fc.constantFrom(1, 900, week - 1)),
      fc.constantFrom(0, 0, 60, -180, 330, -570, 840),
      fc.boolean(),
      fc.integer({ min: 0, max: 999 }),
    )
    .map(([seconds, offset, fraction, ms]) =>
      rfc3339(ctx.nowMs - (ctx.nowMs % 1000) + seconds * 1000 + (fraction ? ms : 0), offset, fraction),
    );
}

function extras(body: Obj, members: [string, Wire][]): Obj {
  return members.reduce((acc, [k, v]) => (getPath(acc, k) === undefined ? appendEntry(acc, k, v) : acc), body);
}

function validPreference(ctx: Ctx): fc.Arbitrary<ValidRequest> {
  return currencyBounds
    .chain((b) =>
      fc.record({
        currency: fc.constant(b.code),
        amount: boundedAmount(b),
        title: nonBlankText(255),
        external_id: optional(fc.oneof(anyText(255), fc.constant(null))),
        expiration_date: optional(emptyOr(expiration(ctx))),
        payer: optional(fc.oneof({ weight: 5, arbitrary: payer }, { weight: 1, arbitrary: fc.constant(null) })),
        payment_method_types: optional(fc.oneof({ weight: 5, arbitrary: methodTypes }, fc.constant(null))),
        selected: fc.constantFrom<string | null | undefined>(undefined, undefined, null, '', ctx.universalMethodId),
        custom_urls: optional(fc.oneof({ weight: 5, arbitrary: customUrls }, fc.constant(null))),
        unknown: unknownMembers,
      }),
    )
    .map((p) => ({
      endpoint: 'preference' as const,
      url: '/v1/checkout_preferences',
      expectedAmount: p.amount.expected,
      body: extras(
        obj({
          type: 'PAYMENT',
          origin: 'API',
          amount: p.amount.wire,
          currency: p.currency,
          title: p.title,
          external_id: p.external_id,
          expiration_date: p.expiration_date,
          payer: p.payer,
          payment_method_types: p.payment_method_types,
          selected_payment_method_id: p.selected,
          custom_urls: p.custom_urls,
        }),
        p.unknown,
      ),
    }));
}

function validSubscription(ctx: Ctx): fc.Arbitrary<ValidRequest> {
  return fc
    .record({
      link: fc.constantFrom(...ctx.activeLinkIds),
      // Sent anyway by some clients; the definition's values win.
      ignored: fc.record({ amount: optional(fc.constantFrom(1, 99.99, null)), currency: optional(fc.constant('EUR')) }),
      payer: optional(payer),
      payment_method_types: optional(methodTypes),
      expiration_date: optional(expiration(ctx)),
      custom_urls: optional(customUrls),
      external_id: optional(anyText(255)),
    })
    .map((s) => ({
      endpoint: 'subscription' as const,
      url: '/v1/checkout_preferences',
      expectedAmount: null,
      body: obj({
        type: 'SUBSCRIPTION',
        origin: 'API',
        payment_link_id: s.link,
        amount: s.ignored.amount,
        currency: s.ignored.currency,
        payer: s.payer,
        payment_method_types: s.payment_method_types,
        expiration_date: s.expiration_date,
        custom_urls: s.custom_urls,
        external_id: s.external_id,
      }),
    }));
}

const INTERVALS = ['DAY', 'WEEK', 'MONTH', 'YEAR'] as const;

function validPaymentLink(): fc.Arbitrary<ValidRequest> {
  return currencyBounds
    .chain((b) =>
      fc.record({
        currency: fc.constant(b.code),
        amount: boundedAmount(b),
        fee: fc.oneof(
          fc.constantFrom<number | null | undefined>(undefined, null, 0),
          boundedAmount(b).map((a) => a.wire),
        ),
        title: nonBlankText(255),
        interval_type: fc.constantFrom(...INTERVALS),
        interval_count: optional(fc.oneof(fc.integer({ min: 1, max: 1000 }), fc.constant(null))),
        trial: fc.oneof(
          fc.constant({}),
          fc.constant({ trial_interval_type: null, trial_interval_count: null }),
          fc.constant({ trial_interval_count: 0 }),
          fc.record({
            trial_interval_type: fc.constantFrom(...INTERVALS),
            trial_interval_count: fc.integer({ min: 1, max: 1000 }),
          }),
        ),
        external_id: optional(fc.oneof(anyText(255), fc.constant(null))),
        unknown: unknownMembers,
      }),
    )
    .map((l) => ({
      endpoint: 'link' as const,
      url: '/v1/payment_links',
      expectedAmount: l.amount.expected,
      body: extras(
        obj({
          title: l.title,
          amount: l.amount.wire,
          currency: l.currency,
          interval_type: l.interval_type,
          interval_count: l.interval_count,
          ...l.trial,
          signup_fee_amount: l.fee,
          external_id: l.external_id,
        }),
        l.unknown,
      ),
    }));
}

function validArchive(ctx: Ctx): fc.Arbitrary<ValidRequest> {
  return fc
    .record({
      id: fc.constantFrom(...ctx.archiveLinkIds),
      body: fc.constantFrom<Obj | undefined>(undefined, new Obj([]), obj({ reason: 'replaced by a new plan' })),
    })
    .map((a) => ({
      endpoint: 'archive' as const,
      url: `/v1/payment_links/${a.id}/archive`,
      body: a.body,
      expectedAmount: null,
    }));
}

function validRequest(ctx: Ctx): fc.Arbitrary<ValidRequest> {
  return fc.oneof(
    { weight: 12, arbitrary: validPreference(ctx) },
    { weight: 3, arbitrary: validSubscription(ctx) },
    { weight: 4, arbitrary: validPaymentLink() },
    { weight: 1, arbitrary: validArchive(ctx) },
  );
}

// ---------------------------------------------------------------------------------------------
// Malformed requests: 60 % a valid request with one structural mutation, 40 % byte-level damage.

type FuzzRequest = {
  kind: string;
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'GET';
  url: string;
  headers: Record<string, string | string[]>;
  /** undefined: no body; a string is sent as UTF-8. */
  body: string | Buffer | undefined;
};

const PREFERENCE_PATHS = [
  'type',
  'origin',
  'amount',
  'currency',
  'title',
  'external_id',
  'expiration_date',
  'payment_link_id',
  'payer',
  'payer.email',
  'payer.name',
  'payer.first_name',
  'payer.last_name',
  'payer.phone',
  'payer.phone_number',
  'payment_method_types',
  'selected_payment_method_id',
  'custom_urls',
  'custom_urls.status_changes_webhook',
  'custom_urls.success_payment_redirect',
  'custom_urls.error_payment_redirect',
];
const LINK_PATHS = [
  'title',
  'amount',
  'currency',
  'interval_type',
  'interval_count',
  'trial_interval_type',
  'trial_interval_count',
  'signup_fee_amount',
  'external_id',
];
const NUMBER_PATHS = ['amount', 'signup_fee_amount', 'interval_count', 'trial_interval_count', 'payment_link_id'];

const SPECIAL_NUMBERS: readonly Wire[] = [
  0.0999,
  0.1,
  0.10000000000000001,
  0.095,
  0.094999,
  3000,
  3000.01,
  3000.004,
  3000.005,
  new Raw('-0'),
  new Raw('-0.0'),
  new Raw('1e309'),
  new Raw('-1e309'),
  new Raw('1E400'),
  new Raw('4.9e-324'),
  new Raw('123456789012345678901234567890'),
  new Raw('0.000000000000000000000000000001'),
  new Raw('1.0'),
  new Raw('1e2'),
  new Raw('0x10'),
  new Raw('+1'),
  new Raw('.5'),
  new Raw('01'),
  new Raw('NaN'),
  new Raw('Infinity'),
  'NaN',
  'Infinity',
  '-Infinity',
  '10',
  '',
  1e-7,
  5e-324,
  0,
  -1,
  -0.01,
  2 ** 53 + 2,
  1.7976931348623157e308,
  true,
  null,
];

const WEIRD_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\u202eRTL override',
  '\u200f\u200e',
  '\ud800',
  '\udfff',
  'x\ud800y',
  '\udc00\ud800',
  '\ufeff',
  '\u200b',
  '\u2028\u2029',
  '😀'.repeat(130),
  '\u0007\u001b[31m',
  '<script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '%00',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as literal text
  '${7*7}',
  '{{7*7}}',
  ' ',
  '',
  'é'.repeat(300),
  '\r\nx-injected: 1',
  'null',
  '__proto__',
  'constructor',
  'USD ',
  'usd',
  'javascript:alert(1)',
  'https://',
  '//evil.example',
];

const BAD_DATES: readonly string[] = [
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-00-10T00:00:00Z',
  '2024-01-01T24:00:00Z',
  '2024-01-01T23:60:00Z',
  '2024-01-01T23:59:60Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  '2024-01-01T00:00:00+24:00',
  '+275760-09-13T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  'now',
  '1717171717',
  '2024-01-01 00:00:00Z',
  '2024-01-01T00:00:00.1234567890Z',
];

// Built once and shared: every request that carries one points at the same string.
const MEGABYTE_STRING = new Raw(JSON.stringify('x'.repeat(1 << 20)));
const OVER_LIMIT_STRING = new Raw(JSON.stringify('y'.repeat(70_000)));
const DEEP_ARRAY = new Raw(`${'['.repeat(10_000)}${']'.repeat(10_000)}`);
const DEEP_OBJECT = new Raw(`${'{"a":'.repeat(10_000)}0${'}'.repeat(10_000)}`);

const otherValue: fc.Arbitrary<Wire> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 20 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant(obj({ a: 1 })),
  fc.constant([]),
  fc.constant(new Obj([])),
);

const PROTO_MEMBERS: readonly (readonly [string, Wire])[] = [
  ['__proto__', obj({ polluted: 'yes' })],
  ['constructor', obj({ prototype: obj({ polluted: 'yes' }) })],
  ['__proto__', obj({ amount: 1, type: 'PAYMENT' })],
  ['prototype', obj({ polluted: 'yes' })],
];

type Base = { url: string; body: Obj; paths: readonly string[] };

function structural(base: Base): fc.Arbitrary<{ kind: string; body: Wire }> {
  const paths = base.paths.length > 0 ? base.paths : ['reason'];
  const stringPaths = paths.filter((p) => !NUMBER_PATHS.includes(p) && p !== 'payer' && p !== 'custom_urls');
  const numberPaths = paths.filter((p) => NUMBER_PATHS.includes(p));
  const topKeys = base.body.entries.map(([k]) => k);
  const at = (kind: string, pathArb: fc.Arbitrary<string>, valueArb: fc.Arbitrary<Wire>) =>
    fc.tuple(pathArb, valueArb).map(([p, v]) => ({ kind, body: setPath(base.body, p, v) as Wire }));
  const anyPath = fc.constantFrom(...paths);
  const strPath = fc.constantFrom(...(stringPaths.length > 0 ? stringPaths : paths));
  const numPath = fc.constantFrom(...(numberPaths.length > 0 ? numberPaths : paths));
  const objectPath = fc.constantFrom('payer', 'custom_urls', 'payer.email', 'extra');
  return fc.oneof(
    at('type-swap', anyPath, otherValue),
    at('special-number', numPath, fc.constantFrom(...SPECIAL_NUMBERS)),
    at(
      'huge-string',
      strPath,
      fc.constantFrom<Wire>(MEGABYTE_STRING, OVER_LIMIT_STRING, 'z'.repeat(256), 'w'.repeat(4097)),
    ),
    at(
      'weird-string',
      strPath,
      fc.oneof(fc.constantFrom<Wire>(...WEIRD_STRINGS), fc.string({ unit: 'binary', maxLength: 40 })),
    ),
    at(
      'date',
      fc.constant(paths.includes('expiration_date') ? 'expiration_date' : (paths[0] ?? 'reason')),
      fc.oneof(
        fc.constantFrom<Wire>(...BAD_DATES),
        fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
      ),
    ),
    fc.tuple(fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 3 }), fc.boolean()).map(([k, v, nested]) => ({
      kind: 'extra-field',
      body: (nested
        ? setPath(base.body, `payer.${k || 'x'}`, fromJsonValue(v))
        : appendEntry(base.body, k, fromJsonValue(v))) as Wire,
    })),
    fc
      .tuple(fc.constantFrom('id', 'status', 'user_id', 'merchant_id', 'created_at', 'mode', 'version'), otherValue)
      .map(([k, v]) => ({ kind: 'forbidden-field', body: appendEntry(base.body, k, v) as Wire })),
    fc
      .tuple(fc.constantFrom(...PROTO_MEMBERS), fc.constantFrom('top', 'payer', 'custom_urls'))
      .map(([[k, v], where]) => ({
        kind: 'proto-key',
        body: (where === 'top'
          ? appendEntry(base.body, k, v)
          : setPath(
              base.body,
              where,
              appendEntry(
                getPath(base.body, where) instanceof Obj ? (getPath(base.body, where) as Obj) : new Obj([]),
                k,
                v,
              ),
            )) as Wire,
      })),
    fc.constantFrom('payer', 'custom_urls', 'body').chain((where) =>
      fc.constantFrom<Wire>([], [base.body], [obj({ email: 'a@b.example' })]).map((v) => ({
        kind: 'array-for-object',
        body: where === 'body' ? v : (setPath(base.body, where, v) as Wire),
      })),
    ),
    fc
      .tuple(fc.constantFrom(...(topKeys.length > 0 ? topKeys : ['type'])), otherValue)
      .map(([k, v]) => ({ kind: 'duplicate-key', body: appendEntry(base.body, k, v) as Wire })),
    fc
      .tuple(fc.oneof(anyPath, objectPath, fc.constant('body')), fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT))
      .map(([p, deep]) => ({
        kind: 'deep-nesting',
        body: p === 'body' ? deep : (setPath(base.body, p, deep) as Wire),
      })),
    fc.constantFrom(...(topKeys.length > 0 ? topKeys : ['type'])).map((k) => ({
      kind: 'remove-field',
      body: setPath(base.body, k, undefined) as Wire,
    })),
    at('null-field', anyPath, fc.constant(null)),
    fc.tuple(fc.boolean(), anyPath, fc.jsonValue({ maxDepth: 3 })).map(([whole, p, v]) => ({
      kind: 'json-anything',
      body: whole ? fromJsonValue(v) : (setPath(base.body, p, fromJsonValue(v)) as Wire),
    })),
  );
}

const INVALID_UTF8: readonly number[][] = [
  [0xff],
  [0xfe, 0xff],
  [0xc3, 0x28],
  [0xa0, 0xa1],
  [0xe2, 0x28, 0xa1],
  [0xf0, 0x28, 0x8c, 0xbc],
  [0xed, 0xa0, 0x80],
  [0xc0, 0xaf],
  [0xf8, 0x88, 0x80, 0x80, 0x80],
  [0x80],
];

const CONTENT_TYPES: readonly (string | null)[] = [
  null,
  '',
  'text/plain',
  'text/json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/xml',
  'application/jsonx',
  'json',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/*',
  '*/*',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/merge-patch+json',
  'application/json, text/plain',
  'application/json;;;',
];

function byteLevel(
  base: Base,
  merchant: TestMerchant,
): fc.Arbitrary<Omit<FuzzRequest, 'method' | 'url'> & { method?: FuzzRequest['method'] }> {
  const text = toJson(base.body);
  const bytes = Buffer.from(text, 'utf8');
  const json = { 'content-type': 'application/json' };
  const plain = (kind: string, body: string | Buffer, headers: Record<string, string | string[]> = json) => ({
    kind,
    body,
    headers,
  });
  return fc.oneof(
    fc.nat({ max: Math.max(0, text.length - 1) }).map((n) => plain('truncated', text.slice(0, n))),
    fc
      .tuple(fc.nat({ max: bytes.length }), fc.constantFrom(...INVALID_UTF8))
      .map(([at, bad]) =>
        plain('invalid-utf8', Buffer.concat([bytes.subarray(0, at), Buffer.from(bad), bytes.subarray(at)])),
      ),
    fc
      .constantFrom([0xef, 0xbb, 0xbf], [0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff])
      .map((bom) => plain('bom', Buffer.concat([Buffer.from(bom), bytes]))),
    fc
      .constantFrom(...CONTENT_TYPES)
      .map((type) => plain('content-type', text, type === null ? {} : { 'content-type': type })),
    fc
      .tuple(fc.nat({ max: 4096 }), fc.boolean())
      .map(([n, asJson]) =>
        plain('oversize', asJson ? `{"title":"${'o'.repeat((1 << 20) + n)}"}` : Buffer.alloc((1 << 20) + 1 + n, 0x41)),
      ),
    fc
      .oneof(
        fc
          .integer({ min: -bytes.length, max: 4096 })
          .filter((d) => d !== 0)
          .map((d) => String(bytes.length + d)),
        fc.constantFrom('abc', '-1', '1e3', ''),
      )
      .map((length) => plain('content-length', bytes, { ...json, 'content-length': length })),
    fc
      .constantFrom<Record<string, string | string[]>>(
        { 'idempotency-key': 'k\r\nx-injected: 1' },
        { 'idempotency-key': ['one', 'two'] },
        { 'idempotency-key': 'k'.repeat(256) },
        { 'idempotency-key': '' },
        { 'x-request-id': 'id\r\nset-cookie: a=b' },
        { 'x-request-id': 'x'.repeat(10_000) },
        { 'content-type': 'application/json\r\nx-injected: 1' },
        { 'x-api-key': `${merchant.apiKey}\r\nx-injected: 1` },
        { 'x-api-secret': `${merchant.apiSecret}\r\n\r\nGET / HTTP/1.1` },
        { 'x-api-key': [merchant.apiKey, merchant.apiKey] },
        { 'x-forwarded-for': '127.0.0.1\r\nx-injected: 1' },
        { 'transfer-encoding': 'chunked' },
        { host: 'evil.example\r\nx-injected: 1' },
      )
      .map((h) => plain('header-injection', text, { ...json, ...h })),
    fc.uint8Array({ maxLength: 512 }).map((b) => plain('random-bytes', Buffer.from(b))),
    fc
      .array(fc.tuple(fc.nat({ max: Math.max(0, bytes.length - 1) }), fc.integer({ min: 1, max: 255 })), {
        minLength: 1,
        maxLength: 3,
      })
      .map((flips) => {
        const copy = Buffer.from(bytes);
        for (const [at, mask] of flips) {
          copy[at] = (copy[at] ?? 0) ^ mask;
        }
        return plain('bit-flip', copy);
      }),
    fc.constantFrom('PUT', 'PATCH', 'DELETE', 'GET').map((method) => ({
      ...plain('method', text),
      method: method as FuzzRequest['method'],
    })),
    fc
      .constantFrom<Record<string, string>>(
        { 'x-api-key': '' },
        { 'x-api-secret': '' },
        { 'x-api-secret': `${merchant.apiSecret}x` },
        { 'x-api-key': 'ck_test_unknown0000000000' },
        { 'x-api-key': 'ck_live_ключ' },
        { 'x-api-key': 'k'.repeat(5000) },
        { 'x-api-key': merchant.apiKey.toUpperCase() },
        { 'x-api-key': '\u0000' },
      )
      .map((h) => plain('auth', text, { ...json, ...h })),
  );
}

function fuzzRequest(ctx: Ctx, merchant: TestMerchant): fc.Arbitrary<FuzzRequest> {
  const ids = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...ctx.archiveLinkIds) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        ctx.foreignLinkId,
        ctx.archivedLinkId,
        'AAAAAAAAAAAAAAAAAAAAAA',
        '',
        'a',
        '%20',
        '..',
        'x'.repeat(64),
        'x'.repeat(65),
        encodeURIComponent('😀'),
        encodeURIComponent("'; DROP TABLE payment_links;--"),
        '%00',
        'a%2Fb',
        '1',
        '-1',
      ),
    },
  );
  const bases: fc.Arbitrary<Base> = fc.oneof(
    {
      weight: 6,
      arbitrary: validPreference(ctx).map((r) => ({
        url: r.url,
        body: r.body ?? new Obj([]),
        paths: PREFERENCE_PATHS,
      })),
    },
    {
      weight: 2,
      arbitrary: validSubscription(ctx).map((r) => ({
        url: r.url,
        body: r.body ?? new Obj([]),
        paths: PREFERENCE_PATHS,
      })),
    },
    {
      weight: 6,
      arbitrary: validPaymentLink().map((r) => ({ url: r.url, body: r.body ?? new Obj([]), paths: LINK_PATHS })),
    },
    {
      weight: 4,
      arbitrary: ids.map((id) => ({
        url: `/v1/payment_links/${id}/archive`,
        body: obj({ reason: 'fuzz' }),
        paths: ['reason'],
      })),
    },
  );
  const idempotencyKey = fc.oneof(
    { weight: 17, arbitrary: fc.constant<string | null>(null) },
    { weight: 3, arbitrary: fc.constantFrom('fz-1', 'fz-2', 'fz-3', 'fz-4', 'fz-5', 'fz-6', 'fz-7', 'fz-8') },
  );
  return fc.tuple(bases, idempotencyKey, fc.integer({ min: 1, max: 100 })).chain(([base, key, roll]) => {
    const common = {
      ...merchant.authHeaders,
      ...(key === null ? {} : { 'idempotency-key': key }),
    };
    if (roll <= 60) {
      return structural(base).map((m) => ({
        kind: `struct:${m.kind}`,
        method: 'POST' as const,
        url: base.url,
        headers: { ...common, 'content-type': 'application/json' },
        body: toJson(m.body),
      }));
    }
    return byteLevel(base, merchant).map((m) => ({
      kind: `bytes:${m.kind}`,
      method: m.method ?? ('POST' as const),
      url: base.url,
      headers: { ...common, ...m.headers },
      body: m.body,
    }));
  });
}

// ---------------------------------------------------------------------------------------------
// Running and judging.

type Figures = {
  requests: number;
  histogram: Record<string, number>;
  byKind: Record<string, Record<string, number>>;
  fiveXX: number;
  schemaViolations: number;
  leakHits: number;
  injectedHeaders: number;
  failures: string[];
};

function newFigures(): Figures {
  return {
    requests: 0,
    histogram: {},
    byKind: {},
    fiveXX: 0,
    schemaViolations: 0,
    leakHits: 0,
    injectedHeaders: 0,
    failures: [],
  };
}

function describeRequest(req: FuzzRequest): string {
  const body = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : req.body.toString('latin1');
  return `${req.kind} ${req.method} ${req.url.slice(0, 120)} ${JSON.stringify(req.headers).slice(0, 200)} ${body.slice(0, 200)}`;
}

/** The problems with one answer, or [] when it is a well-formed answer to a malformed request. */
function judge(req: FuzzRequest, res: LightMyRequestResponse, figures: Figures): void {
  const status = res.statusCode;
  figures.requests++;
  figures.histogram[status] = (figures.histogram[status] ?? 0) + 1;
  const perKind = figures.byKind[req.kind] ?? {};
  perKind[status] = (perKind[status] ?? 0) + 1;
  figures.byKind[req.kind] = perKind;
  const problems: string[] = [];
  if (status >= 500) {
    figures.fiveXX++;
    problems.push('5xx');
  }
  if (res.headers['content-type'] !== JSON_TYPE) {
    problems.push(`content-type ${String(res.headers['content-type'])}`);
  }
  if (status < 200 || status >= 300) {
    if (!ALLOWED_ERROR_STATUSES.has(status) && status < 500) {
      problems.push(`status ${status} is not an allowed error status`);
    }
    try {
      const parsed = errorBody(res.body);
      if (!ERROR_CODES.includes(parsed.code as ErrorCode)) {
        problems.push(`undocumented code ${parsed.code}`);
      } else if (statusFor(parsed.code as ErrorCode) !== status) {
        problems.push(`code ${parsed.code} answered with status ${status}`);
      }
    } catch {
      problems.push('body is not the error schema');
    }
    if (problems.length > 0 && status < 500) {
      figures.schemaViolations++;
    }
  }
  const sent = describeRequest(req) + (typeof req.body === 'string' ? req.body : (req.body?.toString('utf8') ?? ''));
  const leaks = LEAK_PATTERNS.filter((p) => p.test(res.body) && !p.test(sent));
  if (leaks.length > 0) {
    figures.leakHits++;
    problems.push(`leak ${leaks.map(String).join(' ')}`);
  }
  if (res.headers['x-injected'] !== undefined || res.headers['set-cookie'] !== undefined) {
    figures.injectedHeaders++;
    problems.push('an injected header reached the response');
  }
  if (problems.length > 0 && figures.failures.length < 25) {
    figures.failures.push(`${problems.join(', ')} ← ${describeRequest(req)} → ${status} ${res.body.slice(0, 300)}`);
  }
}

async function pool<T>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++];
      if (item !== undefined) {
        await fn(item);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function inject(app: FastifyInstance, req: FuzzRequest): Promise<LightMyRequestResponse> {
  const options: InjectOptions = { method: req.method, url: req.url, headers: req.headers };
  if (req.body !== undefined) {
    options.payload = req.body;
  }
  return app.inject(options);
}

async function prepare(
  app: FastifyInstance,
  merchant: TestMerchant,
  createMerchant: TestApp['createMerchant'],
  nowMs: number,
): Promise<Ctx> {
  const activeLinkIds: string[] = [];
  const archiveLinkIds: string[] = [];
  for (let i = 0; i < 4; i++) {
    activeLinkIds.push((await createPaymentLink(app, merchant, { title: `Plan ${i}` })).id);
    archiveLinkIds.push((await createPaymentLink(app, merchant, { title: `Old plan ${i}` })).id);
  }
  const archived = await createPaymentLink(app, merchant, { title: 'Archived plan' });
  const archive = await app.inject({
    method: 'POST',
    url: `/v1/payment_links/${archived.id}/archive`,
    headers: merchant.authHeaders,
  });
  assert.equal(archive.statusCode, 200, archive.body);
  const foreign = await createPaymentLink(app, await createMerchant(), { title: 'Not yours' });
  const methods = await app.inject({
    method: 'GET',
    url: '/v1/payment_methods?type=CRYPTO_ONCHAIN&currency=USDT',
    headers: merchant.authHeaders,
  });
  assert.equal(methods.statusCode, 200, methods.body);
  const list = (methods.json() as { payment_methods: { id: string; min_amount: number; max_amount: number }[] })
    .payment_methods;
  const universal =
    list.find((m) => m.min_amount <= 0.1 && m.max_amount >= 3000) ??
    assert.fail(`no USDT method covers 0.10–3000: ${methods.body}`);
  return {
    nowMs,
    activeLinkIds,
    archiveLinkIds,
    archivedLinkId: archived.id,
    foreignLinkId: foreign.id,
    universalMethodId: universal.id,
  };
}

function writeReport(backend: Backend, line: Record<string, unknown>): void {
  mkdirSync(REPORTS_DIR, { recursive: true });
  appendFileSync(
    `${REPORTS_DIR}fuzz-${backend}.jsonl`,
    `${JSON.stringify({ at: new Date().toISOString(), backend, ...line })}\n`,
  );
}

const mib = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

// Memory after a full collection, so the figure is what the run kept, not garbage not yet swept.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function settledMemory(): NodeJS.MemoryUsage {
  collect();
  collect();
  return process.memoryUsage();
}

describeBackends('R12 fuzzing the write endpoints', (build, backend) => {
  test(`${MALFORMED[backend]} malformed requests get no 5xx, only documented error bodies, no leaks and no prototype pollution`, async (t) => {
    const { app, merchant, createMerchant, clock } = await build(t, FUZZ_ENV);
    const ctx = await prepare(app, merchant, createMerchant, clock.now().getTime());
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const figures = newFigures();
    const lag = monitorEventLoopDelay({ resolution: 10 });
    const memoryBefore = settledMemory();
    const started = Date.now();
    const total = MALFORMED[backend];
    for (let chunk = 0; chunk * CHUNK < total; chunk++) {
      const requests = fc.sample(fuzzRequest(ctx, merchant), {
        seed: SEED + chunk,
        numRuns: Math.min(CHUNK, total - chunk * CHUNK),
      });
      // Lag is measured while the service works, not while the test generates its next chunk.
      lag.enable();
      await pool(requests, CONCURRENCY, async (req) => {
        judge(req, await inject(app, req), figures);
      });
      lag.disable();
    }
    const memoryAfter = settledMemory();
    // The service must still be serving normally after all of it.
    const alive = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: paymentBody(),
    });
    const polluted = ({} as Record<string, unknown>).polluted;
    const prototypeAfter = Object.getOwnPropertyNames(Object.prototype).sort();
    const pass =
      figures.fiveXX === 0 &&
      figures.schemaViolations === 0 &&
      figures.leakHits === 0 &&
      figures.injectedHeaders === 0 &&
      polluted === undefined &&
      alive.statusCode === 201;
    writeReport(backend, {
      test: 'R12 malformed requests',
      seed: SEED,
      requests: figures.requests,
      histogram: figures.histogram,
      byKind: figures.byKind,
      fiveXX: figures.fiveXX,
      schemaViolations: figures.schemaViolations,
      leakHits: figures.leakHits,
      injectedHeaders: figures.injectedHeaders,
      polluted: polluted !== undefined,
      rssBeforeMiB: mib(memoryBefore.rss),
      rssAfterMiB: mib(memoryAfter.rss),
      heapBeforeMiB: mib(memoryBefore.heapUsed),
      heapAfterMiB: mib(memoryAfter.heapUsed),
      lagP99Ms: Math.round(lag.percentile(99) / 1e4) / 100,
      durationMs: Date.now() - started,
      pass,
    });
    t.diagnostic(
      `statuses ${JSON.stringify(figures.histogram)}; lag p99 ${(lag.percentile(99) / 1e6).toFixed(1)} ms; heap ${mib(memoryBefore.heapUsed)} → ${mib(memoryAfter.heapUsed)} MiB, rss ${mib(memoryBefore.rss)} → ${mib(memoryAfter.rss)} MiB`,
    );

    assert.equal(figures.requests, total);
    assert.deepEqual(
      figures.failures,
      [],
      `${figures.failures.length} bad answers (first 25):\n${figures.failures.join('\n')}`,
    );
    assert.equal(figures.fiveXX, 0);
    assert.equal(polluted, undefined, 'Object.prototype.polluted was set');
    assert.deepEqual(prototypeAfter, prototypeBefore, 'Object.prototype gained members');
    assert.equal(alive.statusCode, 201, alive.body);
    // Every mutation family was exercised, and most of them were refused.
    for (const kind of [
      'struct:proto-key',
      'struct:deep-nesting',
      'struct:huge-string',
      'bytes:invalid-utf8',
      'bytes:oversize',
      'bytes:content-type',
    ]) {
      assert.ok(figures.byKind[kind], `no ${kind} request was generated`);
    }
    assert.ok((figures.histogram[400] ?? 0) > total / 4, JSON.stringify(figures.histogram));
  });

  test(`${VALID[backend]} generated valid requests within the spec's bounds all succeed with the amount rounded half-up`, async (t) => {
    const { app, merchant, createMerchant, clock } = await build(t, FUZZ_ENV);
    const ctx = await prepare(app, merchant, createMerchant, clock.now().getTime());
    const batch = 20;
    let sent = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(validRequest(ctx), { minLength: batch, maxLength: batch }), async (requests) => {
        const answers = await Promise.all(
          requests.map((r) =>
            app.inject({
              method: 'POST',
              url: r.url,
              headers: merchant.authHeaders,
              ...(r.body === undefined
                ? {}
                : {
                    payload: toJson(r.body),
                    headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
                  }),
            }),
          ),
        );
        sent += requests.length;
        answers.forEach((res, i) => {
          const r = requests[i];
          const sentBody = r?.body === undefined ? '' : toJson(r.body);
          assert.ok(
            res.statusCode >= 200 && res.statusCode < 300,
            `${r?.endpoint} ${sentBody.slice(0, 2000)} → ${res.statusCode} ${res.body}`,
          );
          assert.equal(res.headers['content-type'], JSON_TYPE);
          if (r && r.expectedAmount !== null) {
            assert.equal((res.json() as { amount: number }).amount, r.expectedAmount, `${sentBody} → ${res.body}`);
          }
        });
      }),
      { seed: SEED, numRuns: VALID[backend] / batch, endOnFailure: true },
    );
    assert.equal(sent, VALID[backend]);
  });

  test('each single broken rule is refused with 400 WRONG_INPUT whose messages name the field', async (t) => {
    const { app, merchant, createMerchant, clock } = await build(t, FUZZ_ENV);
    const ctx = await prepare(app, merchant, createMerchant, clock.now().getTime());
    const runs = backend === 'sqlite' ? 400 : 150;
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          { weight: 3, arbitrary: fc.tuple(validPreference(ctx), fc.constantFrom(...preferenceViolations(ctx))) },
          { weight: 1, arbitrary: fc.tuple(validSubscription(ctx), fc.constantFrom(...subscriptionViolations(ctx))) },
          { weight: 2, arbitrary: fc.tuple(validPaymentLink(), fc.constantFrom(...linkViolations)) },
        ),
        async ([request, violation]) => {
          const body = violation.apply(request.body ?? new Obj([]));
          const res = await app.inject({
            method: 'POST',
            url: request.url,
            headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
            payload: toJson(body),
          });
          const sent = toJson(body).slice(0, 1500);
          assert.equal(res.statusCode, 400, `${violation.name}: ${sent} → ${res.body}`);
          const error = errorBody(res.body);
          assert.equal(error.code, 'WRONG_INPUT', res.body);
          assert.ok(
            error.messages.some((m) => m.includes(violation.field)),
            `${violation.name}: no message names ${violation.field}: ${res.body} (sent ${sent})`,
          );
        },
      ),
      { seed: SEED, numRuns: runs, endOnFailure: true },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Single-rule violations: each breaks exactly one rule of a valid body and names the field.

type Violation = { name: string; field: string; apply: (body: Obj) => Obj };

const set = (name: string, field: string, path: string, value: Wire | undefined): Violation => ({
  name,
  field,
  apply: (body) => setPath(body, path, value),
});

/** The body's currency bounds (USD when the body has none). */
function boundsOf(body: Obj): CurrencyBounds {
  const code = getPath(body, 'currency');
  return BOUNDS.find((b) => b.code === code) ?? USD;
}

const amountOutOfBounds = (field: string): Violation[] => [
  {
    name: `${field} below the USD bound`,
    field,
    apply: (b) => setPath(b, field, Number(decimalText(boundsOf(b).lo - 1n, boundsOf(b).genDecimals))),
  },
  {
    name: `${field} above the USD bound`,
    field,
    apply: (b) => setPath(b, field, Number(decimalText(boundsOf(b).hi + 1n, boundsOf(b).genDecimals))),
  },
  set(`${field} negative`, field, field, -5),
  set(`${field} as a string`, field, field, '10'),
];

/** Sets a payer member with its other spelling removed, so only that member is wrong. */
const payerMember = (
  name: string,
  member: string,
  alias: string | null,
  value: Wire,
  field = `payer.${member}`,
): Violation => ({
  name,
  field,
  apply: (body) => {
    const current = getPath(body, 'payer');
    let payerObj = current instanceof Obj ? current : new Obj([]);
    if (alias) {
      payerObj = setPath(payerObj, alias, undefined);
    }
    return setPath(body, 'payer', setPath(payerObj, member, value));
  },
});

function preferenceViolations(ctx: Ctx): Violation[] {
  const week = 7 * 86_400_000;
  return [
    set('unknown type', 'type', 'type', 'DONATION'),
    set('type of the wrong type', 'type', 'type', 1),
    set('missing type', 'type', 'type', undefined),
    set('unknown origin', 'origin', 'origin', 'WEB'),
    set('missing origin', 'origin', 'origin', undefined),
    ...amountOutOfBounds('amount'),
    set('amount zero', 'amount', 'amount', 0),
    set('amount that rounds to zero', 'amount', 'amount', 1e-12),
    set('missing amount', 'amount', 'amount', undefined),
    set('unknown currency', 'currency', 'currency', 'XXX'),
    set('currency of the wrong type', 'currency', 'currency', 840),
    set('missing currency', 'currency', 'currency', undefined),
    set('empty title', 'title', 'title', ''),
    set('blank title', 'title', 'title', '   '),
    set('title too long', 'title', 'title', 't'.repeat(256)),
    set('external_id too long', 'external_id', 'external_id', 'e'.repeat(256)),
    set('external_id of the wrong type', 'external_id', 'external_id', 42),
    set('expiration_date in the past', 'expiration_date', 'expiration_date', rfc3339(ctx.nowMs - 1000, 0, false)),
    set(
      'expiration_date beyond 7 days',
      'expiration_date',
      'expiration_date',
      rfc3339(ctx.nowMs - (ctx.nowMs % 1000) + week + 1000, 0, false),
    ),
    set('expiration_date on 30 February', 'expiration_date', 'expiration_date', '2024-02-30T00:00:00Z'),
    set('expiration_date not a timestamp', 'expiration_date', 'expiration_date', 'tomorrow'),
    set('payer not an object', 'payer', 'payer', 'Ana'),
    set('payer as an array', 'payer', 'payer', []),
    payerMember('invalid e-mail', 'email', null, 'not-an-email'),
    payerMember('e-mail of the wrong type', 'email', null, 5),
    payerMember('phone too short', 'phone', 'phone_number', '123'),
    payerMember('phone with letters', 'phone', 'phone_number', '+55 11 ABCD-EFGH'),
    payerMember('phone too long', 'phone', 'phone_number', '+1234567890123456'),
    payerMember('phone_number too short', 'phone_number', 'phone', '12-34'),
    payerMember('first_name of the wrong type', 'first_name', 'name', 7),
    payerMember('first_name too long', 'first_name', 'name', 'f'.repeat(201)),
    payerMember('last_name of the wrong type', 'last_name', null, false),
    {
      name: 'name and first_name disagree',
      field: 'first_name',
      apply: (body) => setPath(setPath(body, 'payer.name', 'Ana'), 'payer.first_name', 'Bea'),
    },
    set('empty payment_method_types', 'payment_method_types', 'payment_method_types', []),
    set('unknown payment method type', 'payment_method_types', 'payment_method_types', ['PAYPAL']),
    set('payment_method_types not an array', 'payment_method_types', 'payment_method_types', 'CARD'),
    set('unknown selected_payment_method_id', 'selected_payment_method_id', 'selected_payment_method_id', 'nope'),
    set('selected_payment_method_id of the wrong type', 'selected_payment_method_id', 'selected_payment_method_id', 5),
    set('custom_urls not an object', 'custom_urls', 'custom_urls', 'https://shop.example'),
    ...['status_changes_webhook', 'success_payment_redirect', 'error_payment_redirect'].flatMap((m) => [
      set(`${m} javascript:`, `custom_urls.${m}`, `custom_urls.${m}`, 'javascript:alert(1)'),
      set(`${m} relative`, `custom_urls.${m}`, `custom_urls.${m}`, '/thanks'),
      set(`${m} scheme-relative`, `custom_urls.${m}`, `custom_urls.${m}`, '//evil.example/x'),
      set(`${m} ftp`, `custom_urls.${m}`, `custom_urls.${m}`, 'ftp://files.example/x'),
      set(`${m} of the wrong type`, `custom_urls.${m}`, `custom_urls.${m}`, 5),
    ]),
  ];
}

function subscriptionViolations(ctx: Ctx): Violation[] {
  return [
    set('unknown payment_link_id', 'payment_link_id', 'payment_link_id', 'AAAAAAAAAAAAAAAAAAAAAA'),
    set('archived payment_link_id', 'payment_link_id', 'payment_link_id', ctx.archivedLinkId),
    set("another merchant's payment_link_id", 'payment_link_id', 'payment_link_id', ctx.foreignLinkId),
    set('missing payment_link_id', 'payment_link_id', 'payment_link_id', undefined),
    set('payment_link_id of the wrong type', 'payment_link_id', 'payment_link_id', true),
    set('subscription with an unknown origin', 'origin', 'origin', 'DASHBOARD'),
  ];
}

const linkViolations: Violation[] = [
  set('empty title', 'title', 'title', ''),
  set('blank title', 'title', 'title', '  '),
  set('title too long', 'title', 'title', 't'.repeat(256)),
  set('missing title', 'title', 'title', undefined),
  ...amountOutOfBounds('amount'),
  set('missing amount', 'amount', 'amount', undefined),
  set('unknown currency', 'currency', 'currency', 'XXX'),
  set('missing currency', 'currency', 'currency', undefined),
  set('unknown interval_type', 'interval_type', 'interval_type', 'HOUR'),
  set('missing interval_type', 'interval_type', 'interval_type', undefined),
  set('interval_count zero', 'interval_count', 'interval_count', 0),
  set('interval_count above 1000', 'interval_count', 'interval_count', 1001),
  set('fractional interval_count', 'interval_count', 'interval_count', 1.5),
  set('interval_count as a string', 'interval_count', 'interval_count', '12'),
  {
    name: 'unknown trial_interval_type',
    field: 'trial_interval_type',
    apply: (b) => setPath(setPath(b, 'trial_interval_type', 'HOUR'), 'trial_interval_count', 1),
  },
  {
    name: 'negative trial_interval_count',
    field: 'trial_interval_count',
    apply: (b) => setPath(setPath(b, 'trial_interval_type', 'DAY'), 'trial_interval_count', -1),
  },
  {
    name: 'trial_interval_type without a count',
    field: 'trial_interval_count',
    apply: (b) => setPath(setPath(b, 'trial_interval_type', 'WEEK'), 'trial_interval_count', undefined),
  },
  set('negative signup_fee_amount', 'signup_fee_amount', 'signup_fee_amount', -1),
  set('signup_fee_amount as a string', 'signup_fee_amount', 'signup_fee_amount', '1'),
  {
    name: 'signup_fee_amount below the USD bound',
    field: 'signup_fee_amount',
    apply: (b) =>
      setPath(b, 'signup_fee_amount', Number(decimalText(boundsOf(b).lo - 1n, boundsOf(b).genDecimals)) || 1e-12),
  },
  set('external_id too long', 'external_id', 'external_id', 'e'.repeat(256)),
];

// ---------------------------------------------------------------------------------------------
// What the fuzzer found, pinned down one case at a time. Gaps in code this suite does not own are
// TODO until fixed; they run, so their output shows when the fix lands.

async function sqliteApp(t: TestContext): Promise<TestApp> {
  return buildTestApp(t, 'sqlite', FUZZ_ENV);
}

describe('R12 edge cases found by fuzzing', () => {
  test('an external_id of 255 characters outside the Basic Multilingual Plane is accepted and returned verbatim', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    const externalId = '😀'.repeat(255);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: paymentBody({ external_id: externalId }),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((res.json() as { external_id: string }).external_id, externalId);
    const tooLong = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: paymentBody({ external_id: '😀'.repeat(256) }),
    });
    assert.equal(tooLong.statusCode, 400, tooLong.body);
  });

  test('an invalid payer.phone_number is refused with a message naming payer.phone_number', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: paymentBody({ payer: { phone_number: '123' } }),
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.ok(
      errorBody(res.body).messages.some((m) => m.startsWith('payer.phone_number')),
      res.body,
    );
  });

  test('a body with a __proto__ or constructor.prototype member anywhere is refused with 400 and pollutes nothing', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    for (const payload of [
      '{"type":"PAYMENT","amount":10,"currency":"USD","title":"x","origin":"API","__proto__":{"polluted":"yes"}}',
      '{"type":"PAYMENT","amount":10,"currency":"USD","title":"x","origin":"API","metadata":{"constructor":{"prototype":{"polluted":"yes"}}}}',
      '{"type":"PAYMENT","amount":10,"currency":"USD","title":"x","origin":"API","payer":{"__proto__":{"email":"a@b.example"}}}',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 400, `${payload} → ${res.body}`);
      assert.equal(errorBody(res.body).code, 'WRONG_INPUT');
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  test('amounts given as 1e309, -0 or "NaN" are refused with 400 naming amount', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    for (const raw of ['1e309', '-1e309', '-0', '"NaN"', '"Infinity"']) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
        payload: `{"type":"PAYMENT","amount":${raw},"currency":"USD","title":"x","origin":"API"}`,
      });
      assert.equal(res.statusCode, 400, `${raw} → ${res.body}`);
      assert.ok(
        errorBody(res.body).messages.some((m) => m.startsWith('amount')),
        `${raw} → ${res.body}`,
      );
    }
  });

  test('amounts at the USD bound after half-up rounding are accepted: 0.0999 and 0.1 become 0.1, 3000.004 becomes 3000', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    for (const [amount, expected] of [
      [0.0999, 0.1],
      [0.1, 0.1],
      [3000, 3000],
      [3000.004, 3000],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: merchant.authHeaders,
        payload: paymentBody({ amount }),
      });
      assert.equal(res.statusCode, 201, `${amount} → ${res.body}`);
      assert.equal((res.json() as { amount: number }).amount, expected, res.body);
    }
    for (const amount of [0.094, 3000.005, 3000.01]) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: merchant.authHeaders,
        payload: paymentBody({ amount }),
      });
      assert.equal(res.statusCode, 400, `${amount} → ${res.body}`);
    }
  });

  test('a NUL character in a text field or query never answers 5xx on any backend', async (t) => {
    for (const backend of (process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite']) as Backend[]) {
      const { app, merchant } = await buildTestApp(t, backend, FUZZ_ENV);
      const answers = [
        await app.inject({
          method: 'POST',
          url: '/v1/checkout_preferences',
          headers: merchant.authHeaders,
          payload: paymentBody({ title: 'a\u0000b' }),
        }),
        await app.inject({
          method: 'POST',
          url: '/v1/payment_links',
          headers: merchant.authHeaders,
          payload: { title: 'p\u0000', amount: 5, currency: 'USD', interval_type: 'MONTH' },
        }),
        await app.inject({
          method: 'GET',
          url: '/v1/checkout_preferences?external_id=%00',
          headers: merchant.authHeaders,
        }),
        await app.inject({
          method: 'GET',
          url: '/v1/checkout_preferences',
          headers: { 'x-api-key': 'ck_test_\u0000', 'x-api-secret': 'cs_test_x' },
        }),
      ];
      for (const res of answers) {
        assert.ok(res.statusCode < 500, `${backend}: ${res.statusCode} ${res.body}`);
        assert.equal(res.headers['content-type'], JSON_TYPE);
        if (res.statusCode >= 400) {
          errorBody(res.body);
        }
      }
    }
  });

  test('a JSON body sent as Content-Type: application/json; charset=utf-8 is accepted', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: { ...merchant.authHeaders, 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify(paymentBody()),
    });
    assert.equal(res.statusCode, 201, res.body);
  });

  test('a malformed percent-encoding or an over-long path id answers with the error body, not Fastify’s', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    for (const path of ['/v1/payment_links/%E0%A4%A/archive', `/v1/payment_links/${'a'.repeat(101)}/archive`]) {
      const res = await app.inject({ method: 'POST', url: path, headers: merchant.authHeaders });
      assert.ok(ALLOWED_ERROR_STATUSES.has(res.statusCode), `${path} → ${res.statusCode} ${res.body}`);
      assert.equal(res.headers['content-type'], JSON_TYPE, res.body);
      errorBody(res.body);
    }
  });

  test('a body that is not valid UTF-8 is refused with 400 instead of being stored with replacement characters', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
      payload: Buffer.concat([
        Buffer.from('{"type":"PAYMENT","amount":10,"currency":"USD","origin":"API","title":"'),
        Buffer.from([0xff]),
        Buffer.from('"}'),
      ]),
    });
    assert.equal(res.statusCode, 400, res.body);
  });

  test('NUL characters and unpaired surrogates in text are refused with 400 the same way on every backend', async (t) => {
    const { app, merchant } = await sqliteApp(t);
    for (const title of ['a\u0000b', 'x\ud800y']) {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/checkout_preferences',
        headers: merchant.authHeaders,
        payload: paymentBody({ title }),
      });
      assert.equal(res.statusCode, 400, `${JSON.stringify(title)} → ${res.body}`);
    }
  });
});
