/**
 * Benchmark data for the dashboard's home page, and how long its figures take on it.
 *
 *   node --import tsx scripts/seed-dashboard.ts --database-url sqlite:./data/dash.db \
 *     [--database-url postgres://postgres@127.0.0.1:5432/dash] [--orders 100000] \
 *     [--subscriptions 10000] [--days 120] [--runs 30] [--explain] [--seed 42] [--no-seed]
 *
 * For each database (migrated first): one new merchant in live mode with `--orders` payment
 * orders (mixed statuses, methods and currencies, spread over `--days` days up to now; the
 * subscriptions' first charges and renewals are part of that count), `--subscriptions`
 * subscriptions on a dozen plans, one checkout preference per checkout and some never paid.
 * Rows are written directly through Kysely in batches, inside transactions, with the column
 * conventions of src/db/repositories/* (epoch-ms bigints, UPPER_SNAKE enums, minor units,
 * closed_at set exactly on CLOSED and REFUNDED orders), so the service reads them as its own.
 *
 * Then it prints the merchant id and the time of DashboardStatsService.overview() (last 30
 * days and the whole range, in USD) and of currenciesWithActivity(): cold (first call on a
 * freshly opened database: empty SQLite page cache and statement cache, new PostgreSQL
 * connections; the operating system's file cache is not dropped) and warm (p50 / p95 / max).
 * A PostgreSQL URL naming a database that does not exist creates it. `--no-seed` measures again
 * on the merchant with the most live orders already there; `--explain` prints each statement's plan.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, Insertable } from 'kysely';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../src/db/database.ts';
import { KyselyDashboardStatsRepository } from '../src/db/repositories/dashboard-stats.repository.ts';
import type {
  CheckoutPreferencesTable,
  Database,
  PaymentLinksTable,
  PaymentOrdersTable,
  RecurrentPaymentsTable,
} from '../src/db/schema.ts';
import { CurrencyTable, DEFAULT_CURRENCIES } from '../src/domain/currencies/currency.ts';
import { DashboardStatsService } from '../src/domain/dashboard/stats.service.ts';
import type { OverviewQuery } from '../src/domain/dashboard/stats.ts';
import type { CatalogEntry } from '../src/domain/payment-methods/catalog.ts';
import { DEFAULT_CATALOG } from '../src/domain/payment-methods/catalog.ts';
import type { PaymentMethodType } from '../src/domain/payment-methods/payment-method.ts';
import type { Repositories } from '../src/domain/repositories/repositories.ts';
import { ManualClock, systemClock } from '../src/domain/shared/clock.ts';
import { newId } from '../src/domain/shared/ids.ts';
import { convertMinor } from '../src/domain/shared/money.ts';
import type { UnitOfWork } from '../src/domain/shared/unit-of-work.ts';
import { DAY_MS, periodBounds } from '../src/domain/subscriptions/billing-schedule.ts';
import type { IntervalType } from '../src/domain/subscriptions/payment-link.ts';

const args = parseArgs({
  options: {
    'database-url': { type: 'string', multiple: true },
    orders: { type: 'string', default: '100000' },
    subscriptions: { type: 'string', default: '10000' },
    days: { type: 'string', default: '120' },
    runs: { type: 'string', default: '30' },
    seed: { type: 'string', default: '42' },
    explain: { type: 'boolean', default: false },
    'no-seed': { type: 'boolean', default: false },
  },
});
const URLS = args.values['database-url'] ?? ['sqlite:./data/dashboard-bench.db'];
const ORDERS = Number(args.values.orders);
const SUBSCRIPTIONS = Number(args.values.subscriptions);
const DAYS = Number(args.values.days);
const RUNS = Number(args.values.runs);
for (const [name, v] of Object.entries({ ORDERS, SUBSCRIPTIONS, DAYS, RUNS })) {
  if (!Number.isSafeInteger(v) || v < 0) {
    throw new Error(`${name.toLowerCase()} must be a whole number`);
  }
}
const MODE = 'live';
const BATCH = 500;
const NOW = Date.now();
const START = NOW - DAYS * DAY_MS;
const currencies = new CurrencyTable(DEFAULT_CURRENCIES);

// ---- deterministic randomness (ids excepted: they come from the service's own generator) --------

let state = Number(args.values.seed) >>> 0;
function random(): number {
  // mulberry32
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
function weighted<T>(table: readonly (readonly [T, number])[]): T {
  const total = table.reduce((s, [, w]) => s + w, 0);
  let r = random() * total;
  for (const [value, w] of table) {
    r -= w;
    if (r < 0) {
      return value;
    }
  }
  const last = table[table.length - 1];
  if (!last) {
    throw new Error('empty table');
  }
  return last[0];
}

// ---- the catalogue -----------------------------------------------------------------------------

const CURRENCY_MIX = [
  ['USD', 50],
  ['BRL', 20],
  ['MXN', 15],
  ['EUR', 10],
  ['CLP', 5],
] as const;
const METHOD_MIX: readonly (readonly [PaymentMethodType, number])[] = [
  ['CARD', 50],
  ['PIX', 15],
  ['BANK_TRANSFER', 15],
  ['CRYPTO_ONCHAIN', 10],
  ['CASH', 10],
];
const CRYPTO = DEFAULT_CATALOG.find((m) => m.type === 'CRYPTO_ONCHAIN' && m.currency === 'USDT');

/** A catalogue method of `type` that takes `currency`, or the card in that currency. */
function methodFor(type: PaymentMethodType, currency: string, recurrent = false): CatalogEntry {
  const ok = (m: CatalogEntry) => !recurrent || m.allowRecurrentPayment;
  const found =
    type === 'CRYPTO_ONCHAIN'
      ? CRYPTO
      : DEFAULT_CATALOG.find((m) => m.type === type && m.currency === currency && ok(m));
  const method = found ?? DEFAULT_CATALOG.find((m) => m.type === 'CARD' && m.currency === currency);
  if (!method) {
    throw new Error(`no method for ${currency}`);
  }
  return method;
}

function decimals(code: string): number {
  return currencies.get(code)?.decimals ?? 2;
}

/** What the method charges for an amount (crypto converts at the rate table, like amountInMethodCurrency). */
function charged(method: CatalogEntry, amountMinor: bigint, currency: string): bigint {
  if (method.currency === currency) {
    return amountMinor;
  }
  const from = currencies.get(currency);
  const to = currencies.get(method.currency);
  if (!from || !to) {
    throw new Error(`no rate for ${currency} or ${method.currency}`);
  }
  return convertMinor(
    amountMinor,
    { decimals: from.decimals, rate: from.usdRate },
    { decimals: to.decimals, rate: to.usdRate },
  );
}

/** A price in a currency's minor units, from 1 to 500 (×100 for CLP, ×5 for BRL, ×18 for MXN: local prices). */
function price(currency: string): bigint {
  const scale = currency === 'CLP' ? 900 : currency === 'MXN' ? 18 : currency === 'BRL' ? 5 : 1;
  const major = between(1, 500) * scale;
  const cents = decimals(currency) === 0 ? 0 : between(0, 99);
  return BigInt(major) * 10n ** BigInt(decimals(currency)) + BigInt(cents);
}

// ---- rows ----------------------------------------------------------------------------------------

type Rows = {
  links: Insertable<PaymentLinksTable>[];
  preferences: Insertable<CheckoutPreferencesTable>[];
  orders: Insertable<PaymentOrdersTable>[];
  subscriptions: Insertable<RecurrentPaymentsTable>[];
};

function preferenceRow(
  merchantId: string,
  p: {
    id: string;
    type: 'PAYMENT' | 'SUBSCRIPTION';
    amountMinor: bigint;
    currency: string;
    title: string;
    createdAt: number;
    paidBy: string | null;
    lastOrder: string | null;
    linkId?: string;
  },
): Insertable<CheckoutPreferencesTable> {
  const expiresAt = p.createdAt + 15 * 60_000;
  return {
    id: p.id,
    merchant_id: merchantId,
    mode: MODE,
    type: p.type,
    status: p.paidBy ? 'PAID' : expiresAt <= NOW ? 'EXPIRED' : 'OPEN',
    amount_minor: p.amountMinor,
    currency: p.currency,
    title: p.title,
    origin: p.type === 'SUBSCRIPTION' ? 'PAYMENT_LINK' : 'API',
    origin_id: null,
    external_id: null,
    payment_link_id: p.linkId ?? null,
    payment_link_version: p.linkId ? 1n : null,
    payer_email: 'payer@example.com',
    payer_first_name: 'Bench',
    payer_last_name: 'Payer',
    payer_phone_number: null,
    payment_method_types: null,
    selected_payment_method_id: null,
    status_changes_webhook: null,
    success_payment_redirect: null,
    error_payment_redirect: null,
    expires_at: BigInt(expiresAt),
    created_at: BigInt(p.createdAt),
    updated_at: BigInt(p.paidBy ? p.createdAt + 60_000 : p.createdAt),
    payment_order_id: p.lastOrder,
    charging_order_id: null,
    charging_until: null,
  };
}

type OrderStatus = 'OPENED' | 'CLOSED' | 'REJECTED' | 'EXPIRED' | 'REFUNDED';

function orderRow(
  merchantId: string,
  o: {
    preferenceId: string;
    recurrentPaymentId: string | null;
    method: CatalogEntry;
    amountMinor: bigint;
    currency: string;
    title: string;
    status: OrderStatus;
    createdAt: number;
    periodIndex: number | null;
    periodAttempt: number | null;
  },
): Insertable<PaymentOrdersTable> {
  const isCard = o.method.type === 'CARD';
  const expiresAt = o.createdAt + (o.periodAttempt !== null && !isCard ? DAY_MS : 15 * 60_000);
  const paid = o.status === 'CLOSED' || o.status === 'REFUNDED';
  const closedAt = paid ? o.createdAt + between(1, 600) * 1000 : null;
  const refundedAt =
    o.status === 'REFUNDED' && closedAt !== null ? Math.min(NOW, closedAt + between(1, 5 * 24) * 3_600_000) : null;
  const endedAt = o.status === 'REJECTED' ? o.createdAt + 2_000 : o.status === 'EXPIRED' ? expiresAt : null;
  const sequence = o.status === 'OPENED' ? 1 : o.status === 'REFUNDED' ? 3 : 2;
  const chargedMinor = charged(o.method, o.amountMinor, o.currency);
  return {
    id: newId(),
    merchant_id: merchantId,
    mode: MODE,
    kind: o.periodAttempt !== null ? 'RENEWAL' : 'CHECKOUT',
    checkout_preference_id: o.preferenceId,
    recurrent_payment_id: o.recurrentPaymentId,
    amount_minor: o.amountMinor,
    currency: o.currency,
    charged_amount_minor: chargedMinor,
    charged_currency: o.method.currency,
    received_amount_minor: paid && !isCard ? chargedMinor : null,
    status: o.status,
    anomaly: 'NONE',
    title: o.title,
    origin: o.recurrentPaymentId ? 'PAYMENT_LINK' : 'API',
    external_id: null,
    payment_method_id: o.method.id,
    payment_method_type: o.method.type,
    payer_email: 'payer@example.com',
    payer_first_name: 'Bench',
    payer_last_name: 'Payer',
    payer_phone_number: null,
    instructions: isCard
      ? JSON.stringify({ type: 'CARD', brand: 'VISA', last4: '4242', exp_month: 12, exp_year: 2039 })
      : null,
    provider_ref: null,
    failure_code: o.status === 'REJECTED' ? (isCard ? 'card_declined' : 'provider_rejected') : null,
    failure_message: o.status === 'REJECTED' ? 'declined (seeded)' : null,
    sequence: BigInt(sequence),
    expires_at: BigInt(expiresAt),
    created_at: BigInt(o.createdAt),
    updated_at: BigInt(refundedAt ?? closedAt ?? endedAt ?? o.createdAt),
    expired_at: o.status === 'EXPIRED' ? BigInt(expiresAt) : null,
    closed_at: closedAt === null ? null : BigInt(closedAt),
    refunded_at: refundedAt === null ? null : BigInt(refundedAt),
    period_index: o.periodIndex === null ? null : BigInt(o.periodIndex),
    period_attempt: o.periodAttempt === null ? null : BigInt(o.periodAttempt),
  };
}

type Plan = {
  row: Insertable<PaymentLinksTable>;
  currency: string;
  amountMinor: bigint;
  intervalType: IntervalType;
  intervalCount: number | null;
  trialDays: number;
  signupFeeMinor: bigint;
  weight: number;
};

function plans(merchantId: string): Plan[] {
  const specs: [string, IntervalType, number, number, number][] = [
    // currency, interval, amount in major units, trial days, weight
    ['USD', 'MONTH', 9.99, 0, 30],
    ['USD', 'MONTH', 29, 14, 8],
    ['USD', 'YEAR', 99, 0, 8],
    ['USD', 'WEEK', 4.5, 0, 8],
    ['USD', 'DAY', 1, 0, 2],
    ['BRL', 'MONTH', 49.9, 0, 12],
    ['BRL', 'YEAR', 499, 0, 3],
    ['BRL', 'WEEK', 19.9, 0, 4],
    ['MXN', 'MONTH', 199, 0, 10],
    ['MXN', 'WEEK', 59, 0, 4],
    ['EUR', 'MONTH', 12, 0, 8],
    ['EUR', 'YEAR', 120, 0, 3],
  ];
  return specs.map(([currency, intervalType, major, trialDays, weight], i) => {
    const amountMinor = BigInt(Math.round(major * 100));
    const signupFeeMinor = trialDays > 0 ? 100n : 0n;
    const createdAt = START - DAY_MS;
    return {
      currency,
      amountMinor,
      intervalType,
      intervalCount: null,
      trialDays,
      signupFeeMinor,
      weight,
      row: {
        id: newId(),
        merchant_id: merchantId,
        mode: MODE,
        title: `Plan ${i + 1} (${intervalType.toLowerCase()})`,
        amount_minor: amountMinor,
        currency,
        interval_type: intervalType,
        interval_count: null,
        trial_interval_type: trialDays > 0 ? 'DAY' : null,
        trial_interval_count: BigInt(trialDays),
        signup_fee_minor: signupFeeMinor,
        external_id: null,
        status: 'ACTIVE',
        version: 1n,
        created_at: BigInt(createdAt),
        updated_at: BigInt(createdAt),
      },
    };
  });
}

/** How far back a subscription of this interval may start, so renewals stay a realistic number. */
const SUB_START_WINDOW: Record<IntervalType, number> = { DAY: 10, WEEK: 120, MONTH: 120, YEAR: 120 };

function subscriptionRows(merchantId: string, rows: Rows, allPlans: Plan[], count: number): void {
  const planTable = allPlans.map((p) => [p, p.weight] as const);
  for (let i = 0; i < count; i++) {
    const plan = weighted(planTable);
    const window = Math.min(DAYS, SUB_START_WINDOW[plan.intervalType]);
    const startedAt = NOW - between(1, window * 24 * 60) * 60_000;
    const type = weighted<PaymentMethodType>([
      ['CARD', 80],
      [plan.currency === 'BRL' ? 'PIX' : 'BANK_TRANSFER', 15],
      ['CASH', 5],
    ]);
    const method = methodFor(type, plan.currency, true);
    const recId = newId();
    const prefId = newId();
    const trialEndsAt = startedAt + plan.trialDays * DAY_MS;
    const trialing = plan.trialDays > 0 && trialEndsAt > NOW;
    const anchor = plan.trialDays > 0 ? trialEndsAt : startedAt - (startedAt % 1000);
    let status = trialing
      ? 'TRIALING'
      : weighted([
          ['ACTIVE', 78],
          ['CANCELED', 15],
          ['UNPAID', 7],
        ] as const);
    const canceledAt = status === 'CANCELED' ? startedAt + Math.floor(random() * (NOW - startedAt)) : null;
    const endAt = canceledAt ?? NOW;

    // The first charge: sign-up fee and first period (the fee alone during a trial).
    const first = orderRow(merchantId, {
      preferenceId: prefId,
      recurrentPaymentId: recId,
      method,
      amountMinor: plan.signupFeeMinor + (plan.trialDays > 0 ? 0n : plan.amountMinor),
      currency: plan.currency,
      title: String(plan.row.title),
      status: 'CLOSED',
      createdAt: startedAt,
      periodIndex: plan.trialDays > 0 ? null : 0,
      periodAttempt: null,
    });
    rows.orders.push(first);
    rows.preferences.push(
      preferenceRow(merchantId, {
        id: prefId,
        type: 'SUBSCRIPTION',
        amountMinor: plan.amountMinor,
        currency: plan.currency,
        title: String(plan.row.title),
        createdAt: startedAt - 60_000,
        paidBy: first.id,
        lastOrder: first.id,
        linkId: String(plan.row.id),
      }),
    );

    // Renewals, period by period, until now (or the cancellation); the last one of an UNPAID subscription fails.
    let periodsPaid = trialing ? 0 : plan.trialDays > 0 ? 0 : 1;
    let failedAttempts = 0;
    if (!trialing) {
      for (let period = periodsPaid; ; period++) {
        const due = periodBounds(anchor, plan.intervalType, period).start;
        if (due > endAt) {
          break;
        }
        const lastDue = periodBounds(anchor, plan.intervalType, period + 1).start > endAt;
        const failsForGood = status === 'UNPAID' && lastDue;
        const retried = !failsForGood && random() < 0.06;
        const attempts: OrderStatus[] = failsForGood ? ['REJECTED'] : retried ? ['REJECTED', 'CLOSED'] : ['CLOSED'];
        attempts.forEach((attemptStatus, k) => {
          const createdAt = due + k * DAY_MS;
          if (createdAt > NOW) {
            return;
          }
          rows.orders.push(
            orderRow(merchantId, {
              preferenceId: prefId,
              recurrentPaymentId: recId,
              method,
              amountMinor: plan.amountMinor,
              currency: plan.currency,
              title: String(plan.row.title),
              status: method.type !== 'CARD' && attemptStatus === 'REJECTED' ? 'EXPIRED' : attemptStatus,
              createdAt,
              periodIndex: period,
              periodAttempt: k + 1,
            }),
          );
        });
        if (failsForGood) {
          failedAttempts = 1;
          break;
        }
        periodsPaid = period + 1;
      }
    }
    if (status === 'UNPAID' && failedAttempts === 0) {
      status = 'ACTIVE'; // too young to have failed a renewal yet
    }
    const current = periodsPaid > 0 ? periodBounds(anchor, plan.intervalType, periodsPaid - 1) : null;
    const sequence = 2 + periodsPaid + failedAttempts + (status === 'CANCELED' ? 1 : 0);
    rows.subscriptions.push({
      id: recId,
      merchant_id: merchantId,
      mode: MODE,
      payment_link_id: String(plan.row.id),
      plan_version: 1n,
      checkout_preference_id: prefId,
      status,
      title: String(plan.row.title),
      amount_minor: plan.amountMinor,
      gross_amount_minor: plan.amountMinor,
      currency: plan.currency,
      interval_type: plan.intervalType,
      interval_count: null,
      trial_interval_type: plan.trialDays > 0 ? 'DAY' : null,
      trial_interval_count: BigInt(plan.trialDays),
      signup_fee_minor: plan.signupFeeMinor,
      payment_method_id: method.id,
      payment_method_type: method.type,
      card_token: method.type === 'CARD' ? `tok_seed_${recId}` : null,
      payer_email: 'payer@example.com',
      payer_first_name: 'Bench',
      payer_last_name: 'Payer',
      payer_phone_number: null,
      external_id: null,
      anchor_at: BigInt(anchor),
      current_period_start: BigInt(trialing ? startedAt : (current?.start ?? startedAt)),
      current_period_end: BigInt(trialing ? trialEndsAt : (current?.end ?? anchor)),
      next_payment_date:
        status === 'CANCELED'
          ? null
          : status === 'UNPAID'
            ? BigInt(NOW + DAY_MS)
            : BigInt(trialing ? trialEndsAt : (current?.end ?? anchor)),
      periods_paid: BigInt(periodsPaid),
      failed_attempts: BigInt(failedAttempts),
      sequence: BigInt(sequence),
      created_at: BigInt(startedAt - 30_000),
      updated_at: BigInt(canceledAt ?? startedAt),
      canceled_at: canceledAt === null ? null : BigInt(canceledAt),
      deleted_by: canceledAt === null ? null : 'merchant',
      card_brand: method.type === 'CARD' ? 'VISA' : null,
      card_last4: method.type === 'CARD' ? '4242' : null,
    });
  }
}

function checkoutRows(merchantId: string, rows: Rows, count: number): void {
  for (let i = 0; i < count; i++) {
    const currency = weighted(CURRENCY_MIX);
    const method = methodFor(weighted(METHOD_MIX), currency);
    const createdAt = START + Math.floor(random() * (NOW - START));
    let status = weighted<OrderStatus>([
      ['CLOSED', 62],
      ['REFUNDED', 4],
      ['REJECTED', 12],
      ['EXPIRED', 14],
      ['OPENED', 8],
    ]);
    if (status === 'OPENED' && createdAt + 15 * 60_000 <= NOW) {
      status = 'EXPIRED';
    }
    const prefId = newId();
    const amountMinor = price(currency);
    const title = `Order ${i + 1}`;
    const order = orderRow(merchantId, {
      preferenceId: prefId,
      recurrentPaymentId: null,
      method,
      amountMinor,
      currency,
      title,
      status,
      createdAt: createdAt + 30_000,
      periodIndex: null,
      periodAttempt: null,
    });
    rows.orders.push(order);
    const paid = status === 'CLOSED' || status === 'REFUNDED';
    rows.preferences.push(
      preferenceRow(merchantId, {
        id: prefId,
        type: 'PAYMENT',
        amountMinor,
        currency,
        title,
        createdAt,
        paidBy: paid ? order.id : null,
        lastOrder: order.id,
      }),
    );
    // One checkout in ten is opened and abandoned before any payment is tried.
    if (random() < 0.1) {
      const abandoned = START + Math.floor(random() * (NOW - START));
      rows.preferences.push(
        preferenceRow(merchantId, {
          id: newId(),
          type: 'PAYMENT',
          amountMinor: price(currency),
          currency,
          title: `Abandoned ${i + 1}`,
          createdAt: abandoned,
          paidBy: null,
          lastOrder: null,
        }),
      );
    }
  }
}

// ---- writing -------------------------------------------------------------------------------------

type Writer = { db: Kysely<Database>; close(): Promise<void> };

function sqliteWriter(url: string): Writer {
  const raw = new SqliteDatabase(url.slice('sqlite:'.length));
  raw.defaultSafeIntegers(true);
  raw.pragma('journal_mode = WAL');
  raw.pragma('busy_timeout = 5000');
  // Test data: a crash while seeding only means seeding again.
  raw.pragma('synchronous = OFF');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
  return { db, close: () => db.destroy() };
}

async function ensurePostgresDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = target.pathname.slice(1);
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) {
    throw new Error(`PostgreSQL database name must be lower-case letters, digits and _: ${name}`);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
  if (exists.rowCount === 0) {
    await client.query(`create database ${name}`);
  }
  await client.end();
}

async function insertAll<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: readonly Insertable<Database[T]>[],
): Promise<void> {
  // A transaction per 20 batches: few commits, and no single transaction holding everything.
  for (let start = 0; start < rows.length; start += BATCH * 20) {
    await db.transaction().execute(async (trx) => {
      for (let b = start; b < Math.min(rows.length, start + BATCH * 20); b += BATCH) {
        // Kysely cannot relate a generic table name to its row type; the rows were typed by the caller.
        const insert = trx.insertInto(table) as unknown as { values(rows: unknown[]): { execute(): Promise<unknown> } };
        await insert.values(rows.slice(b, b + BATCH)).execute();
      }
    });
  }
}

async function seed(url: string): Promise<{ merchantId: string; counts: Record<string, number>; ms: number }> {
  const started = performance.now();
  if (url.startsWith('postgres')) {
    await ensurePostgresDatabase(url);
  }
  // Migrations through the service's own path.
  const migrating = await openDatabase({ url, sqliteSynchronous: 'NORMAL', pgPoolSize: 2 });
  await migrating.migrate();
  const writer: Writer = url.startsWith('sqlite:')
    ? sqliteWriter(url)
    : { db: migrating.db, close: async () => undefined };

  const merchantId = newId();
  const rows: Rows = { links: [], preferences: [], orders: [], subscriptions: [] };
  const allPlans = plans(merchantId);
  rows.links = allPlans.map((p) => p.row);
  subscriptionRows(merchantId, rows, allPlans, SUBSCRIPTIONS);
  checkoutRows(merchantId, rows, Math.max(0, ORDERS - rows.orders.length));

  await writer.db
    .insertInto('merchants')
    .values({
      id: merchantId,
      name: 'Dashboard bench merchant',
      created_at: BigInt(START - 2 * DAY_MS),
      settings: '{}',
    })
    .execute();
  await insertAll(writer.db, 'payment_links', rows.links);
  await insertAll(writer.db, 'checkout_preferences', rows.preferences);
  await insertAll(writer.db, 'recurrent_payments', rows.subscriptions);
  await insertAll(writer.db, 'payment_orders', rows.orders);
  if (url.startsWith('postgres')) {
    // What autovacuum does shortly after a bulk load: statistics for the planner, visibility for index-only scans.
    await sql`vacuum analyze`.execute(writer.db);
  }
  await writer.close();
  await migrating.close();
  return {
    merchantId,
    counts: {
      orders: rows.orders.length,
      subscriptions: rows.subscriptions.length,
      preferences: rows.preferences.length,
      plans: rows.links.length,
    },
    ms: performance.now() - started,
  };
}

// ---- measuring -----------------------------------------------------------------------------------

type Timing = { cold: number; p50: number; p95: number; max: number; cpuP50: number };

/**
 * Wall-clock times, and the CPU time this process spent per warm call (median): on a busy
 * machine the wall clock includes waiting for a core, the CPU time does not (for SQLite it is
 * nearly all of the work; for PostgreSQL the server's work is not in it).
 */
async function time(fn: () => Promise<unknown>): Promise<Timing> {
  const t0 = performance.now();
  await fn();
  const cold = performance.now() - t0;
  const warm: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    const c = process.cpuUsage();
    await fn();
    const used = process.cpuUsage(c);
    warm.push(performance.now() - t);
    cpu.push((used.user + used.system) / 1000);
  }
  const at = (values: number[], q: number) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  };
  return { cold, p50: at(warm, 0.5), p95: at(warm, 0.95), max: at(warm, 1), cpuP50: at(cpu, 0.5) };
}

const ms = (v: number) => `${v.toFixed(1)} ms`;
const show = (t: Timing) =>
  `cold ${ms(t.cold)}; warm p50 ${ms(t.p50)}, p95 ${ms(t.p95)}, max ${ms(t.max)}; CPU p50 ${ms(t.cpuP50)}`;

function queries(merchantId: string): Record<string, OverviewQuery> {
  const today = Math.floor(NOW / DAY_MS) * DAY_MS;
  const base = { merchantId, mode: MODE, currency: 'USD', bucket: 'day' } as const;
  return {
    'last 30 days': { ...base, fromMs: today - 29 * DAY_MS, toMs: today + DAY_MS },
    [`last ${DAYS} days`]: { ...base, fromMs: today - (DAYS - 1) * DAY_MS, toMs: today + DAY_MS },
  };
}

async function measure(url: string, merchantId: string): Promise<void> {
  // A fresh open: new connections, nothing cached by this process.
  const database = await openDatabase({ url, pgPoolSize: 10 });
  const stats = new DashboardStatsService(database.uow, systemClock);
  for (const [label, q] of Object.entries(queries(merchantId))) {
    console.log(`  overview(USD, ${label}): ${show(await time(() => stats.overview(q)))}`);
  }
  console.log(`  currenciesWithActivity: ${show(await time(() => stats.currenciesWithActivity(merchantId, MODE)))}`);
  const home = queries(merchantId)['last 30 days'];
  if (home) {
    console.log(
      `  home page figures (currencies + overview 30 days): ${show(
        await time(() => Promise.all([stats.currenciesWithActivity(merchantId, MODE), stats.overview(home)])),
      )}`,
    );
  }
  const o = home ? await stats.overview(home) : null;
  if (o) {
    console.log(
      `  (30 days: ${o.paymentsPaid} payments, gross ${o.grossVolumeMinor} minor, ${o.subscriptions.active} subscriptions, MRR ${o.mrrMinor}, ${o.failedRenewals} failed renewals)`,
    );
  }
  await database.close();
}

/** The plan of every statement overview() runs, to see that each is answered from its index. */
async function explain(url: string, merchantId: string): Promise<void> {
  const captured: CompiledQuery[] = [];
  const log = (event: { query: CompiledQuery }) => {
    captured.push(event.query);
  };
  let db: Kysely<Database>;
  let run: (q: CompiledQuery) => Promise<string[]>;
  if (url.startsWith('sqlite:')) {
    const raw = new SqliteDatabase(url.slice('sqlite:'.length), { readonly: true });
    raw.defaultSafeIntegers(true);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }), log });
    run = async (q) =>
      (raw.prepare(`explain query plan ${q.sql}`).all(...q.parameters) as { detail: string }[]).map((r) => r.detail);
  } else {
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
    run = async (q) =>
      (
        await pool.query(
          `explain (analyze, buffers, costs off) ${q.sql}`,
          q.parameters.map((p) => (typeof p === 'bigint' ? p.toString() : p)),
        )
      ).rows.map((r: Record<string, string>) => String(Object.values(r)[0]));
  }
  const repo = new KyselyDashboardStatsRepository(db);
  const uow: UnitOfWork = {
    read: { dashboardStats: repo } as unknown as Repositories,
    transaction: () => Promise.reject(new Error('read only')),
    oneStatement: () => Promise.reject(new Error('read only')),
  };
  // A moment when no day is sealed yet: the plans of the live queries, every one of them.
  const stats = new DashboardStatsService(uow, new ManualClock(new Date(0)));
  const q = queries(merchantId)['last 30 days'];
  if (q) {
    await stats.overview(q);
  }
  await stats.currenciesWithActivity(merchantId, MODE);
  for (const query of captured) {
    console.log(`  -- ${query.sql.replace(/\s+/g, ' ').slice(0, 160)}…`);
    for (const line of await run(query)) {
      console.log(`     ${line}`);
    }
  }
  await db.destroy();
}

/** The merchant with the most live orders in an already seeded database. */
async function biggestMerchant(url: string): Promise<string> {
  const database = await openDatabase({ url, pgPoolSize: 1 });
  const row = await database.db
    .selectFrom('payment_orders')
    .select(['merchant_id', sql<string>`count(*)`.as('n')])
    .where('mode', '=', MODE)
    .groupBy('merchant_id')
    .orderBy(sql`count(*)`, 'desc')
    .limit(1)
    .executeTakeFirst();
  await database.close();
  if (!row) {
    throw new Error(`no live orders in ${url}: seed first`);
  }
  return row.merchant_id;
}

for (const url of URLS) {
  const kind = url.startsWith('sqlite:') ? 'SQLite' : 'PostgreSQL';
  const where = url.replace(/\/\/[^@/]*@/, '//…@');
  let merchantId: string;
  if (args.values['no-seed']) {
    merchantId = await biggestMerchant(url);
    console.log(`${kind} ${where}: merchant ${merchantId} (mode ${MODE}), already seeded`);
  } else {
    const seeded = await seed(url);
    merchantId = seeded.merchantId;
    console.log(
      `${kind} ${where}: merchant ${merchantId} (mode ${MODE}), ` +
        `${Object.entries(seeded.counts)
          .map(([k, v]) => `${v} ${k}`)
          .join(', ')} seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
    );
  }
  console.log(
    `  load average before measuring: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  await measure(url, merchantId);
  if (args.values.explain) {
    await explain(url, merchantId);
  }
}
