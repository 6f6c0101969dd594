import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery } from 'kysely';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { KyselyCheckoutPreferenceRepository } from '../../src/db/repositories/checkout-preference.repository.ts';
import { KyselyEmailRepository } from '../../src/db/repositories/email.repository.ts';
import { KyselyPaymentOrderRepository } from '../../src/db/repositories/payment-order.repository.ts';
import type { Database } from '../../src/db/schema.ts';
import type { PreferenceFilter } from '../../src/domain/checkout-preferences/checkout-preference.ts';
import type { PaymentOrderFilter } from '../../src/domain/payment-orders/payment-order.ts';
import type { PageRequest } from '../../src/domain/shared/page.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/**
 * Queries that run on every payment, and the dashboard's filtered payment lists, must be index
 * range reads, not walks over a merchant's whole list (or every merchant's): at 100,000 orders a
 * rare payer e-mail or method would otherwise read every row, and a card payment's decline count
 * every declined order.
 * Each test runs the repositories' own queries (captured as they are sent) through the
 * database's planner and asserts which index it picks. On PostgreSQL sequential scans are
 * switched off for the EXPLAIN, because on a test's few rows a scan is cheapest; what is
 * asserted is that the right index exists and fits the query.
 */

const PAGE = { limit: 25, cursor: { createdAt: Date.UTC(2026, 10, 1), id: 'zzzzzzzzzzzzzzzzzzzzzz' } };
const RANGE = { createdGte: Date.UTC(2026, 9, 1), createdLt: Date.UTC(2026, 10, 1) };

type Planner = {
  plan(query: CompiledQuery): Promise<string>;
  orders: KyselyPaymentOrderRepository;
  preferences: KyselyCheckoutPreferenceRepository;
  emails: KyselyEmailRepository;
  captured: CompiledQuery[];
};

/** The repositories whose queries are planned, on a Kysely that records what it sends. */
function repositories(db: Kysely<Database>): Pick<Planner, 'orders' | 'preferences' | 'emails'> {
  return {
    orders: new KyselyPaymentOrderRepository(db),
    preferences: new KyselyCheckoutPreferenceRepository(db),
    emails: new KyselyEmailRepository(db),
  };
}

async function planner(t: TestContext, ctx: TestApp): Promise<Planner> {
  const captured: CompiledQuery[] = [];
  const log = (event: { level: string; query: CompiledQuery }) => {
    if (event.level === 'query') {
      captured.push(event.query);
    }
  };
  if (ctx.sqlitePath) {
    const connection = new SqliteDatabase(ctx.sqlitePath);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }), log });
    t.after(() => db.destroy());
    return {
      captured,
      ...repositories(db),
      async plan(query) {
        const rows = connection.prepare(`explain query plan ${query.sql}`).all(...(query.parameters as unknown[])) as {
          detail: string;
        }[];
        return rows.map((r) => r.detail).join('\n');
      },
    };
  }
  const url = ctx.config.databaseUrl;
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  t.after(() => db.destroy());
  return {
    captured,
    ...repositories(db),
    async plan(query) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query('set enable_seqscan = off');
        const params = (query.parameters as unknown[]).map((p) => (typeof p === 'bigint' ? p.toString() : p));
        const result = await client.query(`explain ${query.sql}`, params);
        return result.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
      } finally {
        await client.end();
      }
    },
  };
}

/** The plans of every statement `run` sends, in order. */
async function plansOf(p: Planner, run: () => Promise<unknown>): Promise<string[]> {
  p.captured.length = 0;
  await run();
  return Promise.all(p.captured.map((q) => p.plan(q)));
}

/** The plan of the one statement `run` sends. */
async function planOf(p: Planner, run: () => Promise<unknown>): Promise<string> {
  const plans = await plansOf(p, run);
  assert.equal(plans.length, 1);
  return plans[0] as string;
}

function orderPlan(p: Planner, ctx: TestApp, filter: PaymentOrderFilter): Promise<string> {
  return planOf(p, () => p.orders.list(ctx.merchant.id, 'test', PAGE, filter));
}

function preferencePlan(p: Planner, ctx: TestApp, filter: PreferenceFilter, page: PageRequest = PAGE): Promise<string> {
  return planOf(p, () => p.preferences.list(ctx.merchant.id, 'test', page, filter));
}

/** The table is read through `index` (SQLite: "USING [COVERING] INDEX name"; PostgreSQL: "Index Scan … using name" or a bitmap scan on it). */
function assertUses(plan: string, index: string): void {
  assert.ok(plan.includes(index), `expected ${index} in the plan:\n${plan}`);
}

/** No step reads a whole table (SQLite "SCAN payment_orders" without an index; PostgreSQL "Seq Scan"). */
function assertNoFullScan(plan: string): void {
  for (const line of plan.split('\n')) {
    assert.ok(!/\bSCAN (payment_orders|checkout_preferences)\b(?!.*INDEX)/.test(line), `full scan:\n${plan}`);
    assert.ok(!/Seq Scan on (payment_orders|checkout_preferences)/.test(line), `full scan:\n${plan}`);
  }
}

describeBackends(
  'reads narrow by what they are about (a checkout, a subscription, a merchant), not by what every merchant shares',
  (build) => {
    test("the decline lock counts the checkout's declined card orders through the checkout index, not every declined order", async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const plan = await planOf(p, () => p.orders.countRejectedCardOrders('pref_none'));
      assertUses(plan, 'payment_orders_preference');
      assert.ok(!plan.includes('payment_orders_open'), `the index on status would walk every declined order:\n${plan}`);
      assertNoFullScan(plan);
    });

    test("a payment finds its checkout's open orders in one range of the checkout index, with nothing to sort", async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const plan = await planOf(p, () => p.orders.listOpenForPreference('pref_none'));
      assertUses(plan, 'payment_orders_preference');
      assert.ok(!plan.includes('payment_orders_open'), `the index on status would walk every open order:\n${plan}`);
      // Every payment runs it in its transaction: a sorter set up for its usual zero rows cost more than the lookup.
      assert.ok(!/TEMP B-TREE|Sort/.test(plan), `sorted:\n${plan}`);
      assertNoFullScan(plan);
    });

    test("the reads every payment makes bind only the checkout's id, so SQLite compiles them once", async (t) => {
      // A bound kind or method, compared by SQLite's planner with a partial index's constant
      // (kind = 'CHECKOUT', payment_method_type = 'CRYPTO_ONCHAIN'), makes the statement be
      // compiled again on every run; the fixed values are literals in the SQL instead.
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const reads: [string, () => Promise<unknown>][] = [
        ['pref_none', () => p.orders.listOpenForPreference('pref_none')],
        ['pref_none', () => p.orders.countRejectedCardOrders('pref_none')],
        ['sub_none', () => p.orders.openRenewals('sub_none')],
      ];
      for (const [id, read] of reads) {
        p.captured.length = 0;
        await read();
        assert.equal(p.captured.length, 1);
        assert.deepEqual(p.captured[0]?.parameters, [id], p.captured[0]?.sql);
      }
    });

    test("the jobs' polls of open orders bind no status or method, so SQLite compiles them once, and read an index", async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const now = Date.UTC(2026, 10, 1);
      const polls: [unknown[], () => Promise<unknown>][] = [
        [[200], () => p.orders.listOpenedCardOrders(200)],
        [[BigInt(now), 100], () => p.orders.listDueForExpiry(now, 100)],
      ];
      for (const [parameters, poll] of polls) {
        p.captured.length = 0;
        await poll();
        assert.equal(p.captured.length, 1);
        assert.deepEqual(p.captured[0]?.parameters, parameters, p.captured[0]?.sql);
        assertNoFullScan(await planOf(p, poll));
      }
    });

    test("a subscription's open renewals are read through its own orders, not every open order", async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const plan = await planOf(p, () => p.orders.openRenewals('rec_none'));
      assertUses(plan, 'payment_orders_subscription');
      assertNoFullScan(plan);
    });

    test('the chain watcher reads recently expired crypto orders, not every expired order', async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const plans = await plansOf(p, () => p.orders.listWatchedCrypto('live', Date.now() - 86_400_000, 100));
      assert.equal(plans.length, 2);
      assertUses(plans[1] ?? '', 'payment_orders_expired_crypto');
      for (const plan of plans) {
        assertNoFullScan(plan);
      }
    });

    test("a merchant's e-mails are read through the merchant's own, not by walking every merchant's", async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      const plans = await plansOf(p, async () => {
        await p.emails.listForMerchant(ctx.merchant.id, 'test', 25);
        await p.emails.page(ctx.merchant.id, 'test', { limit: 25, cursor: null });
      });
      assert.equal(plans.length, 2);
      for (const plan of plans) {
        assertUses(plan, 'outbound_emails_merchant');
      }
    });

    test("the checkouts list filtered to OPEN reads the merchant's own checkouts, not every merchant's open ones", async (t) => {
      const ctx = await build(t);
      const p = await planner(t, ctx);
      // The first page: no cursor, whose range on created_at would favour the right index anyway.
      const open = await preferencePlan(p, ctx, { status: 'OPEN' }, { limit: 25, cursor: null });
      assertUses(open, 'checkout_preferences_by_status');
      assert.ok(!open.includes('checkout_preferences_open_expiry'), `every merchant's open checkouts:\n${open}`);
      assertNoFullScan(open);
    });
  },
);

describeBackends('dashboard list filters read an index', (build) => {
  test('each order filter of the payments list is an index range on its own column, newest first', async (t) => {
    const ctx = await build(t);
    const p = await planner(t, ctx);
    const cases: [PaymentOrderFilter, string][] = [
      [{ status: 'CLOSED' }, 'payment_orders_by_status'],
      [{ paymentMethodType: 'PIX' }, 'payment_orders_by_method'],
      [{ externalId: 'order-1' }, 'payment_orders_by_external_id'],
      [{ payerEmail: 'Ana@Example.com' }, 'payment_orders_by_payer_email'],
    ];
    for (const [filter, index] of cases) {
      const plan = await orderPlan(p, ctx, filter);
      assertUses(plan, index);
      assertNoFullScan(plan);
    }
  });

  test('filters combined with a date range, and the unfiltered list, never scan the whole table', async (t) => {
    const ctx = await build(t);
    const p = await planner(t, ctx);
    for (const filter of [
      {},
      RANGE,
      { status: 'CLOSED', paymentMethodType: 'CARD', ...RANGE },
      { payerEmail: 'ana@example.com', ...RANGE },
    ] as PaymentOrderFilter[]) {
      assertNoFullScan(await orderPlan(p, ctx, filter));
    }
  });

  test('the checkouts list filters by status and by payer e-mail through an index', async (t) => {
    const ctx = await build(t);
    const p = await planner(t, ctx);
    const byStatus = await preferencePlan(p, ctx, { status: 'PAID' });
    assertUses(byStatus, 'checkout_preferences_by_status');
    assertNoFullScan(byStatus);
    const byEmail = await preferencePlan(p, ctx, { payerEmail: 'ana@example.com' });
    assertUses(byEmail, 'checkout_preferences_by_payer_email');
    assertUses(byEmail, 'payment_orders_by_payer_email');
    assertNoFullScan(byEmail);
  });
});
