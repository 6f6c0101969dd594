import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { advanceClock, pay } from '../../support/payments.ts';
import type { TestApp } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

const DAY = 86_400;

function advance(ctx: TestApp, seconds: number): Promise<void> {
  return advanceClock(ctx.app, ctx.merchant, seconds);
}

async function getRec(ctx: TestApp, id: string): Promise<Record<string, unknown>> {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${id}`, headers: ctx.merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function subscribe(ctx: TestApp, plan: Record<string, unknown>, payBody: Record<string, unknown> = {}) {
  const link = await createPaymentLink(ctx.app, ctx.merchant, plan);
  const pref = await createPreference(ctx.app, ctx.merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    external_id: 'sub-1',
  });
  const order = (await pay(ctx.app, ctx.merchant, pref.id, payBody)).json();
  assert.ok(order.recurrent_payment_id, JSON.stringify(order));
  return { link, pref, order, recId: String(order.recurrent_payment_id) };
}

describeBackends('recurrent payments', (build) => {
  test('a card subscription with a trial is TRIALING, then renews every month and COMPLETEs after its periods', async (t) => {
    const ctx = await build(t);
    const { order, recId } = await subscribe(ctx, {
      amount: 10,
      interval_type: 'MONTH',
      interval_count: 3,
      trial_interval_type: 'DAY',
      trial_interval_count: 7,
    });
    assert.equal(order.amount, 0, 'a trial without sign-up fee charges nothing at checkout');
    assert.equal(order.status, 'CLOSED', JSON.stringify(order));
    let rec = await getRec(ctx, recId);
    assert.equal(rec.status, 'TRIALING');
    assert.equal(rec.origin, 'PAYMENT_LINK');
    assert.equal(rec.external_id, 'sub-1');
    await advance(ctx, 7 * DAY);
    rec = await getRec(ctx, recId);
    assert.equal(rec.status, 'ACTIVE', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 1);
    await advance(ctx, 31 * DAY);
    await advance(ctx, 31 * DAY);
    rec = await getRec(ctx, recId);
    assert.equal(rec.periods_paid, 3);
    assert.equal(rec.status, 'ACTIVE', 'complete only at the end of the last paid period');
    await advance(ctx, 31 * DAY);
    rec = await getRec(ctx, recId);
    assert.equal(rec.status, 'COMPLETE');
    const orders = await ctx.app.inject({
      url: `/v1/payment_orders?recurrent_payment_id=${recId}`,
      headers: ctx.merchant.authHeaders,
    });
    const statuses = orders.json().data.map((o: { status: string; amount: number }) => `${o.status}:${o.amount}`);
    assert.deepEqual(statuses.sort(), ['CLOSED:0', 'CLOSED:10', 'CLOSED:10', 'CLOSED:10']);
  });

  test('without a trial the checkout charges the sign-up fee plus the first period', async (t) => {
    const ctx = await build(t);
    const { order, recId } = await subscribe(ctx, {
      amount: 10,
      signup_fee_amount: 5,
      interval_type: 'MONTH',
      interval_count: 12,
    });
    assert.equal(order.amount, 15);
    const rec = await getRec(ctx, recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 1);
    assert.equal(rec.gross_total_amount, 125);
  });

  test('a clock jump over several periods catches up period by period, one charge each', async (t) => {
    const ctx = await build(t);
    const { recId } = await subscribe(ctx, { amount: 10, interval_type: 'WEEK', interval_count: 10 });
    await advance(ctx, 5 * 7 * DAY + 60);
    const rec = await getRec(ctx, recId);
    assert.equal(rec.periods_paid, 6);
    const orders = await ctx.app.inject({
      url: `/v1/payment_orders?recurrent_payment_id=${recId}&limit=100`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(orders.json().data.length, 6);
  });

  test('DELETE cancels with 200 and the updated record, and no further charge happens', async (t) => {
    const ctx = await build(t);
    const { recId } = await subscribe(ctx, { amount: 10, interval_type: 'MONTH', interval_count: 12 });
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/v1/recurrent_payments/${recId}?deleted_by=merchant`,
      headers: { ...ctx.merchant.authHeaders, 'content-type': 'application/json' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'CANCELED');
    await advance(ctx, 40 * DAY);
    assert.equal((await getRec(ctx, recId)).periods_paid, 1);
    const events = await ctx.app.inject({
      url: `/v1/events?entity_id=${recId}&limit=100`,
      headers: ctx.merchant.authHeaders,
    });
    const types = events.json().data.map((e: { event_type: string }) => e.event_type);
    assert.ok(types.includes('RECURRENT_PAYMENT.CANCELED'), types.join());
  });

  test('a failed renewal makes the subscription UNPAID, retries, and is CANCELED when retries run out', async (t) => {
    const ctx = await build(t);
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      amount: 10,
      interval_type: 'MONTH',
      interval_count: 12,
    });
    const pref = await createPreference(ctx.app, ctx.merchant, { type: 'SUBSCRIPTION', payment_link_id: link.id });
    const methods = await ctx.cobro.services.paymentMethods.list({ type: 'CARD', currency: 'USD' });
    // This test card can be saved but every later charge is declined (docs/test-cards.md).
    const order = await ctx.cobro.services.paymentStart.start(pref.id, {
      paymentMethodId: methods[0]?.id ?? null,
      payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' },
      card: { number: '4000000000000341', expiry: '12/39', cvc: '123', holderName: 'Ana Lima' },
    });
    const recId = String(order.recurrentPaymentId);
    assert.equal(order.status, 'REJECTED', 'the first charge of this card is declined too');
    assert.equal((await getRec(ctx, recId)).status, 'INCOMPLETE');
    const ok = await ctx.cobro.services.paymentStart.start(pref.id, {
      paymentMethodId: methods[0]?.id ?? null,
      payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' },
      card: { number: '4242424242424242', expiry: '12/39', cvc: '123', holderName: 'Ana Lima' },
    });
    assert.equal(ok.status, 'CLOSED');
    assert.equal((await getRec(ctx, recId)).status, 'ACTIVE');
    // Swap the saved card for one whose charges are declined.
    const tokenized = await ctx.cobro.providers.testProcessor.tokenize({
      pan: '4000000000000341',
      expMonth: 12,
      expYear: 2039,
      cvc: '123',
    });
    assert.equal(tokenized.status, 'tokenized');
    if (tokenized.status === 'tokenized') {
      await ctx.cobro.services.subscriptions.replaceCard(recId, tokenized.token);
    }
    await advance(ctx, 31 * DAY);
    let rec = await getRec(ctx, recId);
    assert.equal(rec.status, 'UNPAID');
    await advance(ctx, 6 * DAY);
    rec = await getRec(ctx, recId);
    assert.equal(rec.status, 'CANCELED', JSON.stringify(rec));
    assert.equal(rec.deleted_by, 'retries_exhausted');
  });
});
