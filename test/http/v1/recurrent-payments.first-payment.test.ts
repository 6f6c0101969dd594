import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SUBSCRIPTION_LINK_PURPOSE } from '../../../src/domain/subscriptions/renewal-mail.ts';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { pay } from '../../support/payments.ts';
import type { TestApp } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

const DAY = 86_400;

async function rec(ctx: TestApp, id: string): Promise<Record<string, unknown>> {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${id}`, headers: ctx.merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function eventTypes(ctx: TestApp, id: string): Promise<string[]> {
  const res = await ctx.app.inject({ url: `/v1/events?entity_id=${id}&limit=100`, headers: ctx.merchant.authHeaders });
  return (res.json().data as { event_type: string; sequence: number }[])
    .sort((a, b) => a.sequence - b.sequence)
    .map((e) => e.event_type);
}

async function advance(ctx: TestApp, seconds: number): Promise<void> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/test_helpers/clock/advance',
    headers: ctx.merchant.authHeaders,
    payload: { seconds },
  });
  assert.equal(res.statusCode, 200, res.body);
}

describeBackends('recurrent payments: first payment and card changes', (build) => {
  test('a first payment declined until the checkout locks makes the subscription REJECTED, after INCOMPLETE', async (t) => {
    const ctx = await build(t);
    const link = await createPaymentLink(ctx.app, ctx.merchant, { amount: 10 });
    const pref = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD'],
    });
    const first = await pay(ctx.app, ctx.merchant, pref.id, { outcome: 'REJECTED' });
    assert.equal(first.statusCode, 201, first.body);
    const recId = String(first.json().recurrent_payment_id);
    assert.equal((await rec(ctx, recId)).status, 'INCOMPLETE', 'the payer may still try another card');
    for (let attempt = 2; attempt <= 4; attempt++) {
      assert.equal((await pay(ctx.app, ctx.merchant, pref.id, { outcome: 'REJECTED' })).statusCode, 201);
      assert.equal((await rec(ctx, recId)).status, 'INCOMPLETE', `after ${attempt} declines`);
    }
    assert.equal((await pay(ctx.app, ctx.merchant, pref.id, { outcome: 'REJECTED' })).statusCode, 201);
    assert.equal((await rec(ctx, recId)).status, 'REJECTED', 'the fifth decline locks the checkout');
    const locked = await pay(ctx.app, ctx.merchant, pref.id, { outcome: 'APPROVED' });
    assert.equal(locked.statusCode, 409, locked.body);
    assert.deepEqual(await eventTypes(ctx, recId), [
      'RECURRENT_PAYMENT.PENDING',
      'RECURRENT_PAYMENT.INCOMPLETE',
      'RECURRENT_PAYMENT.REJECTED',
    ]);
  });

  test('a subscription left UNPAID after its retries is tried again with the card the payer saves', async (t) => {
    const ctx = await build(t, { env: { SUBSCRIPTION_CANCEL_AFTER_RETRIES: 'false', SUBSCRIPTION_RETRY_DAYS: '1' } });
    const link = await createPaymentLink(ctx.app, ctx.merchant, { amount: 10, interval_type: 'MONTH' });
    const pref = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD'],
    });
    const order = await pay(ctx.app, ctx.merchant, pref.id);
    const recId = String(order.json().recurrent_payment_id);
    const sig = ctx.cobro.services.signer.sign(SUBSCRIPTION_LINK_PURPOSE, recId);
    const portal = ctx.cobro.services.payerPortal;
    const card = { expiry: '12/34', cvc: '737', holderName: 'Ana Souza' };
    const declining = await portal.changeCard(recId, sig, { number: '4000000000000341', ...card });
    assert.equal(declining?.ok, true, declining?.ok === false ? JSON.stringify(declining.problems) : 'invalid link');
    await advance(ctx, 31 * DAY);
    assert.equal((await rec(ctx, recId)).status, 'UNPAID');
    await advance(ctx, 2 * DAY);
    const stuck = await rec(ctx, recId);
    assert.equal(stuck.status, 'UNPAID', JSON.stringify(stuck));
    assert.equal(stuck.next_payment_date, null, 'retries exhausted: nothing scheduled');

    const good = await portal.changeCard(recId, sig, { number: '4242 4242 4242 4242', ...card });
    assert.equal(good?.ok, true, good?.ok === false ? JSON.stringify(good.problems) : 'invalid link');
    assert.notEqual((await rec(ctx, recId)).next_payment_date, null, 'the new card is tried on the next run');
    await advance(ctx, 60);
    const active = await rec(ctx, recId);
    assert.equal(active.status, 'ACTIVE', JSON.stringify(active));
    assert.equal(active.periods_paid, 2);
    assert.deepEqual(await eventTypes(ctx, recId), [
      'RECURRENT_PAYMENT.PENDING',
      'RECURRENT_PAYMENT.ACTIVE',
      'RECURRENT_PAYMENT.UNPAID',
      'RECURRENT_PAYMENT.ACTIVE',
    ]);
  });

  test('a wrong signature changes nothing, and a PIX subscription cannot take a card', async (t) => {
    const ctx = await build(t);
    const link = await createPaymentLink(ctx.app, ctx.merchant, { amount: 30, currency: 'BRL' });
    const pref = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['PIX'],
    });
    const recId = String((await pay(ctx.app, ctx.merchant, pref.id)).json().recurrent_payment_id);
    const portal = ctx.cobro.services.payerPortal;
    const card = { number: '4242424242424242', expiry: '12/34', cvc: '737', holderName: 'Ana Souza' };
    assert.equal(await portal.changeCard(recId, 'not-the-signature', card), undefined);
    assert.equal(await portal.cancel(recId, ''), undefined);
    assert.equal((await rec(ctx, recId)).status, 'ACTIVE');
    const sig = ctx.cobro.services.signer.sign(SUBSCRIPTION_LINK_PURPOSE, recId);
    await assert.rejects(portal.changeCard(recId, sig, card), /not paid by card/);
  });
});
