import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import { DashboardStatsService } from '../../src/domain/dashboard/stats.service.ts';
import type { Overview } from '../../src/domain/dashboard/stats.ts';
import { ManualClock } from '../../src/domain/shared/clock.ts';
import { AppError } from '../../src/domain/shared/errors.ts';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import { pay } from '../support/payments.ts';
import type { BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/**
 * The home page's figures, from data made the way merchants and payers make it: preferences and
 * plans through the API, payments through the pay test helper (as a payer on the checkout),
 * refunds and cancellations through the API, renewals by the billing job as the clock moves.
 * Every figure is asserted exactly, and what belongs to another merchant, the other mode or
 * another currency must not show.
 */

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso).getTime();
/** The USD bank-transfer method of the default catalogue. */
const USD_BANK_TRANSFER = 'jlbG2BoLT30LOwCWCuLYr0';

async function paid(ctx: TestApp, merchant: TestMerchant, prefId: string, body: Record<string, unknown> = {}) {
  const res = await pay(ctx.app, merchant, prefId, body);
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

/** A PAYMENT preference in USD (or `overrides.currency`) for `amount` major units. */
function checkout(ctx: TestApp, merchant: TestMerchant, amount: number, overrides: Record<string, unknown> = {}) {
  return createPreference(ctx.app, merchant, { amount, ...overrides });
}

/** A plan, and one subscriber who pays its first charge; returns the recurrent payment id. */
async function subscribe(
  ctx: TestApp,
  merchant: TestMerchant,
  plan: Record<string, unknown>,
  methodTypes: string[] = ['CARD'],
): Promise<string> {
  const link = await createPaymentLink(ctx.app, merchant, plan);
  const pref = await createPreference(ctx.app, merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    payment_method_types: methodTypes,
  });
  const order = await paid(ctx, merchant, pref.id);
  assert.equal(order.status, 'CLOSED', JSON.stringify(order));
  return String(order.recurrent_payment_id);
}

async function refund(ctx: TestApp, merchant: TestMerchant, orderId: string): Promise<void> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/payment_orders/${orderId}/refunds`,
    headers: merchant.authHeaders,
    payload: {},
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().status, 'REFUNDED', res.body);
}

async function recurrentStatus(ctx: TestApp, merchant: TestMerchant, id: string): Promise<string> {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${id}`, headers: merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return String(res.json().status);
}

type Seeded = { ctx: TestApp; merchant: TestMerchant; clock: ManualClock; stats: DashboardStatsService };

/**
 * The story (all times UTC), merchant A in test mode unless said otherwise:
 * - 10 March 10:00: 10.00 USD paid by card (refunded on the 11th); 5.00 USD never paid; 7.50 USD
 *   declined; 100.00 BRL paid by PIX. Merchant B pays 10.00 USD. In live mode, A is paid 40.00
 *   USD by bank transfer and leaves a 3.00 USD checkout unpaid.
 * - 10 March 23:59:59.999: 20.00 USD paid by bank transfer (the last millisecond of the 10th).
 * - 11 March 00:00:00.000: 30.00 USD paid in crypto (the first millisecond of the 11th).
 * - 11 March 12:00: subscriptions, each paying its first charge — 9.99 USD a month (card),
 *   120.00 USD a year (card), 10.00 USD a week (bank transfer), 10.00 USD a week (card), another
 *   10.00 USD a week (bank transfer), 1.00 USD a day after a month's trial with a 2.00 USD sign-up
 *   fee (card), 5.00 USD a month (card, cancelled at once), 50.00 BRL a month (PIX); and B's 9.99
 *   USD a month.
 * - 18 March 11:00: the billing job opens the two weekly bank-transfer renewals (due at 12:00);
 *   the merchant cancels the second subscription, which withdraws its open renewal.
 * - 19 March 13:00: that renewal expired unpaid (a failed renewal; the subscription is UNPAID);
 *   the weekly card subscription was renewed (10.00 USD).
 */
async function seed(
  build: (t: TestContext, options?: BuildOptions) => Promise<TestApp>,
  t: TestContext,
): Promise<Seeded> {
  const clock = new ManualClock('2025-03-10T10:00:00Z');
  const ctx = await build(t, { clock });
  const { merchant } = ctx;
  const other = await ctx.createMerchant('test');

  // 10 March.
  const refundable = await paid(ctx, merchant, (await checkout(ctx, merchant, 10)).id);
  await checkout(ctx, merchant, 5);
  const declined = await paid(ctx, merchant, (await checkout(ctx, merchant, 7.5)).id, { outcome: 'REJECTED' });
  assert.equal(declined.status, 'REJECTED', JSON.stringify(declined));
  await paid(
    ctx,
    merchant,
    (await checkout(ctx, merchant, 100, { currency: 'BRL', payment_method_types: ['PIX'] })).id,
  );
  await paid(ctx, other, (await checkout(ctx, other, 10)).id);

  // The same merchant in live mode: a bank transfer the merchant confirms, and a checkout left unpaid.
  const live = await ctx.cobro.services.merchants.createKeyPair(merchant.id, 'live');
  const liveHeaders = { 'x-api-key': live.apiKey, 'x-api-secret': live.apiSecret };
  const liveMerchant: TestMerchant = { ...merchant, mode: 'live', authHeaders: liveHeaders };
  await ctx.cobro.services.merchants.updateSettings(merchant.id, {
    bank: { bank_name: 'Banco Uno', account_holder: 'A', account_number: '123456789', routing: '001' },
  });
  const livePref = await checkout(ctx, liveMerchant, 40, { payment_method_types: ['BANK_TRANSFER'] });
  const liveOrder = await ctx.cobro.services.paymentStart.start(livePref.id, {
    paymentMethodId: USD_BANK_TRANSFER,
    payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza' },
  });
  const confirmed = await ctx.app.inject({
    method: 'POST',
    url: `/v1/payment_orders/${liveOrder.id}/confirm`,
    headers: liveHeaders,
    payload: {},
  });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  assert.equal(confirmed.json().status, 'CLOSED', confirmed.body);
  await checkout(ctx, liveMerchant, 3);

  clock.set('2025-03-10T23:59:59.999Z');
  await paid(ctx, merchant, (await checkout(ctx, merchant, 20, { payment_method_types: ['BANK_TRANSFER'] })).id);

  // 11 March.
  clock.set('2025-03-11T00:00:00.000Z');
  const crypto = await paid(
    ctx,
    merchant,
    (await checkout(ctx, merchant, 30, { payment_method_types: ['CRYPTO_ONCHAIN'] })).id,
  );
  assert.equal(crypto.payment_method_type, 'CRYPTO_ONCHAIN');
  assert.equal(crypto.status, 'CLOSED', JSON.stringify(crypto));
  await refund(ctx, merchant, refundable.id);

  clock.set('2025-03-11T12:00:00.000Z');
  await subscribe(ctx, merchant, { amount: 9.99, interval_type: 'MONTH', interval_count: 12 });
  await subscribe(ctx, merchant, { amount: 120, interval_type: 'YEAR', interval_count: 2 });
  const weeklyPush = await subscribe(ctx, merchant, { amount: 10, interval_type: 'WEEK', interval_count: 52 }, [
    'BANK_TRANSFER',
  ]);
  const weeklyCard = await subscribe(ctx, merchant, { amount: 10, interval_type: 'WEEK', interval_count: 52 });
  const withdrawn = await subscribe(ctx, merchant, { amount: 10, interval_type: 'WEEK', interval_count: 52 }, [
    'BANK_TRANSFER',
  ]);
  const trialing = await subscribe(ctx, merchant, {
    amount: 1,
    interval_type: 'DAY',
    interval_count: 365,
    trial_interval_type: 'MONTH',
    trial_interval_count: 1,
    signup_fee_amount: 2,
  });
  const canceled = await subscribe(ctx, merchant, { amount: 5, interval_type: 'MONTH', interval_count: 12 });
  const cancel = await ctx.app.inject({
    method: 'DELETE',
    url: `/v1/recurrent_payments/${canceled}`,
    headers: merchant.authHeaders,
  });
  assert.equal(cancel.statusCode, 200, cancel.body);
  await subscribe(ctx, merchant, { amount: 50, currency: 'BRL', interval_type: 'MONTH', interval_count: 12 }, ['PIX']);
  await subscribe(ctx, other, { amount: 9.99, interval_type: 'MONTH', interval_count: 12 });

  // The renewals.
  clock.set('2025-03-18T11:00:00.000Z');
  await ctx.cobro.runJobs();
  // Cancelled with its renewal open: that order is withdrawn (EXPIRED), which is no failed renewal.
  const cancelWithdrawn = await ctx.app.inject({
    method: 'DELETE',
    url: `/v1/recurrent_payments/${withdrawn}`,
    headers: merchant.authHeaders,
  });
  assert.equal(cancelWithdrawn.statusCode, 200, cancelWithdrawn.body);
  const renewals = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${withdrawn}`,
    headers: merchant.authHeaders,
  });
  assert.deepEqual(
    (renewals.json().data as { status: string }[]).map((o) => o.status),
    ['EXPIRED', 'CLOSED'],
    renewals.body,
  );
  clock.set('2025-03-19T13:00:00.000Z');
  await ctx.cobro.runJobs();
  assert.equal(await recurrentStatus(ctx, merchant, weeklyPush), 'UNPAID');
  assert.equal(await recurrentStatus(ctx, merchant, weeklyCard), 'ACTIVE');
  assert.equal(await recurrentStatus(ctx, merchant, trialing), 'TRIALING');
  assert.equal(await recurrentStatus(ctx, merchant, canceled), 'CANCELED');

  return { ctx, merchant, clock, stats: new DashboardStatsService(ctx.cobro.database.uow, clock) };
}

/** The series as [ISO day, volume, count] for days that had payments. */
function busyDays(o: Overview): [string, bigint, number][] {
  return o.series
    .filter((p) => p.count > 0)
    .map((p) => [new Date(p.dayStartMs).toISOString().slice(0, 10), p.volumeMinor, p.count]);
}

describeBackends('dashboard home figures', (build) => {
  test('a merchant with ten days of payments, refunds and subscriptions sees exact figures', async (t) => {
    // Seeded once; each subtest reads the same data.
    const { ctx, merchant, clock, stats } = await seed(build, t);
    const tenDays = {
      merchantId: merchant.id,
      mode: 'test',
      currency: 'USD',
      fromMs: at('2025-03-10T00:00:00Z'),
      toMs: at('2025-03-20T00:00:00Z'),
      bucket: 'day',
    } as const;

    await t.test(
      'every figure of ten days is exact, and another merchant, the live mode and BRL are left out',
      async () => {
        const o = await stats.overview(tenDays);
        // Paid: 10.00 (card, refunded later) + 20.00 (bank) on the 10th; 30.00 (crypto) and the first
        // charges 9.99 + 120.00 + 10.00 (bank) + 10.00 + 10.00 (bank) + 2.00 (fee) + 5.00 on the 11th;
        // a 10.00 renewal on the 19th.
        assert.equal(o.grossVolumeMinor, 23_699n);
        assert.equal(o.paymentsPaid, 11);
        assert.equal(o.series.length, 10);
        assert.deepEqual(
          o.series.map((p) => p.dayStartMs),
          Array.from({ length: 10 }, (_, i) => at('2025-03-10T00:00:00Z') + i * DAY),
        );
        assert.deepEqual(busyDays(o), [
          ['2025-03-10', 3_000n, 2],
          ['2025-03-11', 19_699n, 8],
          ['2025-03-19', 1_000n, 1],
        ]);
        assert.deepEqual(o.methodMix, [
          { type: 'CARD', count: 7, volumeMinor: 16_699n },
          { type: 'BANK_TRANSFER', count: 3, volumeMinor: 4_000n },
          { type: 'CRYPTO_ONCHAIN', count: 1, volumeMinor: 3_000n },
        ]);
        // USD checkouts created: 4 on the 10th (one never paid, one declined), the crypto one and 7 subscription checkouts.
        assert.deepEqual(o.conversion, { created: 12, paid: 10, rate: 10 / 12 });
        assert.deepEqual(o.refunds, { count: 1, amountMinor: 1_000n });
        // ACTIVE: monthly, yearly, weekly card; TRIALING: the daily plan. UNPAID and the two CANCELED are not active.
        assert.deepEqual(o.subscriptions, { active: 4, trialing: 1 });
        // 999 + 12 000 / 12 + 1 000 × 4.348 = 999 + 1 000 + 4 348.
        assert.equal(o.mrrMinor, 6_347n);
        // 100 × 30.4375 = 3 043.75, rounded half-up.
        assert.equal(o.trialingMrrMinor, 3_044n);
        // The weekly bank-transfer renewal that expired unpaid; not the one withdrawn by the cancellation.
        assert.equal(o.failedRenewals, 1);
      },
    );

    await t.test('a single-day range gives one point and counts only what happened that UTC day', async () => {
      const o = await stats.overview({
        merchantId: merchant.id,
        mode: 'test',
        currency: 'USD',
        fromMs: at('2025-03-11T00:00:00Z'),
        toMs: at('2025-03-12T00:00:00Z'),
        bucket: 'day',
      });
      assert.deepEqual(busyDays(o), [['2025-03-11', 19_699n, 8]]);
      assert.equal(o.series.length, 1);
      assert.equal(o.grossVolumeMinor, 19_699n);
      assert.deepEqual(
        o.refunds,
        { count: 1, amountMinor: 1_000n },
        'the refund of the 10th payment was made on the 11th',
      );
      assert.deepEqual(o.conversion, { created: 8, paid: 8, rate: 1 });
      assert.equal(o.failedRenewals, 0);
      // The 10th alone, to its last millisecond: the refunded payment still counts there.
      const tenth = await stats.overview({
        merchantId: merchant.id,
        mode: 'test',
        currency: 'USD',
        fromMs: at('2025-03-10T00:00:00Z'),
        toMs: at('2025-03-11T00:00:00Z'),
        bucket: 'day',
      });
      assert.equal(tenth.grossVolumeMinor, 3_000n);
      assert.deepEqual(tenth.refunds, { count: 0, amountMinor: 0n });
      assert.deepEqual(tenth.conversion, { created: 4, paid: 2, rate: 0.5 });
    });

    await t.test('the live mode and BRL have figures of their own', async () => {
      const range = { fromMs: at('2025-03-10T00:00:00Z'), toMs: at('2025-03-20T00:00:00Z'), bucket: 'day' } as const;
      const live = await stats.overview({ merchantId: merchant.id, mode: 'live', currency: 'USD', ...range });
      assert.equal(live.grossVolumeMinor, 4_000n);
      assert.deepEqual(live.methodMix, [{ type: 'BANK_TRANSFER', count: 1, volumeMinor: 4_000n }]);
      assert.deepEqual(live.conversion, { created: 2, paid: 1, rate: 0.5 });
      assert.equal(live.mrrMinor, 0n);
      const brl = await stats.overview({ merchantId: merchant.id, mode: 'test', currency: 'BRL', ...range });
      assert.equal(brl.grossVolumeMinor, 15_000n);
      assert.deepEqual(brl.methodMix, [{ type: 'PIX', count: 2, volumeMinor: 15_000n }]);
      assert.equal(brl.mrrMinor, 5_000n);
      assert.deepEqual(brl.subscriptions, { active: 1, trialing: 0 });
      const nothing = await stats.overview({ merchantId: merchant.id, mode: 'test', currency: 'EUR', ...range });
      assert.equal(nothing.grossVolumeMinor, 0n);
      assert.equal(nothing.series.length, 10);
      assert.ok(nothing.series.every((p) => p.count === 0 && p.volumeMinor === 0n));
      assert.deepEqual(nothing.methodMix, []);
      assert.deepEqual(nothing.conversion, { created: 0, paid: 0, rate: null });
    });

    await t.test('the currency picker lists the currencies the merchant has checkouts in, per mode', async () => {
      assert.deepEqual(await stats.currenciesWithActivity(merchant.id, 'test'), ['BRL', 'USD']);
      assert.deepEqual(await stats.currenciesWithActivity(merchant.id, 'live'), ['USD']);
      const newcomer = await ctx.createMerchant('test');
      assert.deepEqual(await stats.currenciesWithActivity(newcomer.id, 'test'), []);
    });

    await t.test(
      'days sealed later give the same figures, and a later refund still counts on its own day',
      async () => {
        const q = tenDays;
        const figures = (o: Overview) => [
          o.grossVolumeMinor,
          o.paymentsPaid,
          o.series,
          o.methodMix,
          o.conversion,
          o.refunds,
          o.failedRenewals,
        ];
        const counted = await stats.overview(q);
        // Two hours after the 19th ends, every day's payments are final and stored; conversion is
        // final only for the 10th (nine days), the others keep being counted.
        clock.set('2025-03-20T03:00:00.000Z');
        assert.deepEqual(figures(await stats.overview(q)), figures(counted));
        const early = await ctx.cobro.database.db
          .selectFrom('dashboard_days')
          .select(['day', 'checkouts_created'])
          .where('merchant_id', '=', merchant.id)
          .where('mode', '=', 'test')
          .where('currency', '=', 'USD')
          .orderBy('day')
          .execute();
        assert.deepEqual(
          early.map((d) => d.checkouts_created === null),
          [false, true, true, true, true, true, true, true, true, true],
        );
        // Nine days after the 19th ends, every day's conversion is final too, filled in on this view.
        clock.set('2025-03-29T00:00:00.000Z');
        const sealing = await stats.overview(q);
        const stored = await ctx.cobro.database.db
          .selectFrom('dashboard_days')
          .select(['day', 'checkouts_created', 'checkouts_paid'])
          .where('merchant_id', '=', merchant.id)
          .where('mode', '=', 'test')
          .where('currency', '=', 'USD')
          .orderBy('day')
          .execute();
        assert.equal(stored.length, 10, 'one row per day of the range, days of nothing included');
        assert.deepEqual(
          stored
            .map((d) => [Number(d.day) * DAY, Number(d.checkouts_created), Number(d.checkouts_paid)])
            .filter((row) => (row[1] ?? 0) > 0),
          [
            [at('2025-03-10T00:00:00Z'), 4, 2],
            [at('2025-03-11T00:00:00Z'), 8, 8],
          ],
        );
        const read = await stats.overview(q);
        assert.deepEqual(figures(sealing), figures(counted));
        assert.deepEqual(figures(read), figures(counted));
        assert.equal(read.failedRenewals, 1, 'the failed renewal of the 19th, from its sealed day');
        // A range that starts and ends inside days mixes sealed days with counted part-days.
        const ragged = { ...q, fromMs: at('2025-03-10T12:00:00Z'), toMs: at('2025-03-19T12:00:00Z') };
        clock.set('2025-03-19T13:00:00.000Z');
        const raggedCounted = await new DashboardStatsService(ctx.cobro.database.uow, clock).overview(ragged);
        clock.set('2025-03-29T00:00:00.000Z');
        assert.deepEqual(figures(await stats.overview(ragged)), figures(raggedCounted));

        // A payment of the sealed 11th refunded today: a refund today, the 11th's volume unchanged.
        const eleventh = await ctx.app.inject({ url: '/v1/payment_orders?limit=100', headers: merchant.authHeaders });
        const crypto = (eleventh.json().data as { id: string; payment_method_type: string; currency: string }[]).find(
          (o) => o.payment_method_type === 'CRYPTO_ONCHAIN',
        );
        assert.ok(crypto, eleventh.body);
        await refund(ctx, merchant, crypto.id);
        const withToday = await stats.overview({ ...q, toMs: at('2025-03-30T00:00:00Z') });
        assert.deepEqual(withToday.refunds, { count: 2, amountMinor: 4_000n });
        assert.equal(withToday.grossVolumeMinor, counted.grossVolumeMinor);
        assert.deepEqual(figures(await stats.overview(q)), figures(counted), 'the sealed range is as it was');
      },
    );

    await t.test('a range that ends before it starts, or a malformed currency, is WRONG_INPUT', async () => {
      await assert.rejects(
        stats.overview({ merchantId: merchant.id, mode: 'test', currency: 'usd', fromMs: 10, toMs: 10, bucket: 'day' }),
        (e: unknown) =>
          e instanceof AppError &&
          e.code === 'WRONG_INPUT' &&
          e.messages.join('|') === 'currency must be a currency code|to must be after from',
      );
    });
  });
});
