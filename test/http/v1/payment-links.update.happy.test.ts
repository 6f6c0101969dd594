import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { advanceClock, pay } from '../../support/payments.ts';
import type { TestApp, TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';
import { JSON_UTF8 } from '../helpers.ts';

const DAY = 86_400;

type Link = Record<string, unknown> & { id: string; version: number };

async function edit(
  app: FastifyInstance,
  merchant: TestMerchant,
  id: string,
  body: Record<string, unknown>,
  options: { method?: 'POST' | 'PATCH'; key?: string } = {},
): Promise<Link> {
  const res = await app.inject({
    method: options.method ?? 'POST',
    url: `/v1/payment_links/${id}`,
    headers: { ...merchant.authHeaders, ...(options.key ? { 'idempotency-key': options.key } : {}) },
    payload: body,
  });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], JSON_UTF8);
  return res.json() as Link;
}

async function subscribe(ctx: TestApp, linkId: string): Promise<{ recId: string; firstAmount: number }> {
  const pref = await createPreference(ctx.app, ctx.merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: linkId,
    payment_method_types: ['CARD'],
  });
  const order = await pay(ctx.app, ctx.merchant, pref.id);
  assert.equal(order.statusCode, 201, order.body);
  const body = order.json();
  assert.equal(body.status, 'CLOSED', order.body);
  return { recId: String(body.recurrent_payment_id), firstAmount: Number(body.amount) };
}

async function recurrent(ctx: TestApp, id: string): Promise<Record<string, unknown>> {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${id}`, headers: ctx.merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function renewalAmounts(ctx: TestApp, recId: string): Promise<number[]> {
  const res = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${recId}&status=CLOSED&limit=100`,
    headers: ctx.merchant.authHeaders,
  });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json().data as { amount: number; created_at: string }[]).map((o) => o.amount).reverse();
}

describeBackends('POST /v1/payment_links/{id} (plan versions)', (build) => {
  test('an edit makes a new version with the new terms, and GET shows it', async (t) => {
    const { app, merchant } = await build(t);
    const link = await createPaymentLink(app, merchant, { title: 'Gold', amount: 10, interval_count: 12 });
    assert.equal(link.version, 1);
    const edited = await edit(app, merchant, link.id, {
      title: 'Gold 2026',
      amount: 12.5,
      interval_type: 'WEEK',
      interval_count: 52,
      trial_interval_type: 'DAY',
      trial_interval_count: 14,
      signup_fee_amount: 3,
    });
    assert.deepEqual(
      {
        title: edited.title,
        amount: edited.amount,
        interval_type: edited.interval_type,
        interval_count: edited.interval_count,
        trial_interval_type: edited.trial_interval_type,
        trial_interval_count: edited.trial_interval_count,
        signup_fee_amount: edited.signup_fee_amount,
        gross_total_amount: edited.gross_total_amount,
        version: edited.version,
        status: edited.status,
        currency: edited.currency,
      },
      {
        title: 'Gold 2026',
        amount: 12.5,
        interval_type: 'WEEK',
        interval_count: 52,
        trial_interval_type: 'DAY',
        trial_interval_count: 14,
        signup_fee_amount: 3,
        gross_total_amount: 653,
        version: 2,
        status: 'ACTIVE',
        currency: 'USD',
      },
      JSON.stringify(edited),
    );
    const read = await app.inject({ url: `/v1/payment_links/${link.id}`, headers: merchant.authHeaders });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json(), edited);
  });

  test('PATCH edits like POST, and members left out keep their value', async (t) => {
    const { app, merchant } = await build(t);
    const link = await createPaymentLink(app, merchant, {
      title: 'Silver',
      amount: 5,
      trial_interval_type: 'WEEK',
      trial_interval_count: 1,
      signup_fee_amount: 2,
    });
    const edited = await edit(app, merchant, link.id, { amount: 6 }, { method: 'PATCH' });
    assert.equal(edited.version, 2);
    assert.equal(edited.amount, 6);
    assert.equal(edited.title, 'Silver');
    assert.equal(edited.trial_interval_type, 'WEEK');
    assert.equal(edited.trial_interval_count, 1);
    assert.equal(edited.signup_fee_amount, 2);
    const noTrial = await edit(app, merchant, link.id, { trial_interval_type: null, signup_fee_amount: null });
    assert.equal(noTrial.version, 3);
    assert.equal(noTrial.trial_interval_type, null);
    assert.equal(noTrial.trial_interval_count, 0);
    assert.equal(noTrial.signup_fee_amount, 0);
    const forever = await edit(app, merchant, link.id, { interval_count: null });
    assert.equal(forever.interval_count, null);
    assert.equal(forever.gross_total_amount, null);
  });

  test('an edit that changes nothing keeps the version', async (t) => {
    const { app, merchant } = await build(t);
    const link = await createPaymentLink(app, merchant, { title: 'Same', amount: 9.99 });
    const again = await edit(app, merchant, link.id, { title: 'Same', amount: 9.99, currency: 'USD' });
    assert.equal(again.version, 1);
    assert.equal(again.updated_at, link.updated_at);
    const empty = await edit(app, merchant, link.id, {});
    assert.equal(empty.version, 1);
  });

  test('a POST retried with the same Idempotency-Key replays the answer and edits once', async (t) => {
    const { app, merchant } = await build(t);
    const link = await createPaymentLink(app, merchant, { amount: 10 });
    const first = await edit(app, merchant, link.id, { amount: 11 }, { key: 'edit-1' });
    const replay = await app.inject({
      method: 'POST',
      url: `/v1/payment_links/${link.id}`,
      headers: { ...merchant.authHeaders, 'idempotency-key': 'edit-1' },
      payload: { amount: 11 },
    });
    assert.equal(replay.statusCode, 200, replay.body);
    assert.equal(replay.headers['idempotent-replayed'], 'true');
    assert.deepEqual(replay.json(), first);
    const read = await app.inject({ url: `/v1/payment_links/${link.id}`, headers: merchant.authHeaders });
    assert.equal(read.json().version, 2, read.body);
  });

  test('after an edit an existing subscriber renews at the old amount while a new subscriber pays the new one', async (t) => {
    const ctx = await build(t);
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Coffee club',
      amount: 10,
      interval_type: 'MONTH',
      interval_count: 6,
    });
    const early = await subscribe(ctx, link.id);
    assert.equal(early.firstAmount, 10);

    const edited = await edit(ctx.app, ctx.merchant, link.id, { title: 'Coffee club+', amount: 15 });
    assert.equal(edited.version, 2);
    const late = await subscribe(ctx, link.id);
    assert.equal(late.firstAmount, 15, 'a new subscriber pays the new amount at checkout');

    await advanceClock(ctx.app, ctx.merchant, 31 * DAY);

    const old = await recurrent(ctx, early.recId);
    assert.equal(old.plan_version, 1, JSON.stringify(old));
    assert.equal(old.amount, 10);
    assert.equal(old.title, 'Coffee club');
    assert.equal(old.periods_paid, 2, JSON.stringify(old));
    assert.deepEqual(await renewalAmounts(ctx, early.recId), [10, 10], 'the renewal charged the terms bought');

    const fresh = await recurrent(ctx, late.recId);
    assert.equal(fresh.plan_version, 2, JSON.stringify(fresh));
    assert.equal(fresh.amount, 15);
    assert.equal(fresh.title, 'Coffee club+');
    assert.deepEqual(await renewalAmounts(ctx, late.recId), [15, 15]);
  });

  test('a checkout created before an edit sells the version its page showed, even when paid after the edit', async (t) => {
    const ctx = await build(t);
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      amount: 10,
      interval_type: 'MONTH',
      interval_count: 3,
      signup_fee_amount: 1,
    });
    const before = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD'],
    });
    assert.equal(before.amount, 10);
    await edit(ctx.app, ctx.merchant, link.id, {
      amount: 20,
      signup_fee_amount: 0,
      trial_interval_type: 'DAY',
      trial_interval_count: 7,
    });
    const order = await pay(ctx.app, ctx.merchant, before.id);
    assert.equal(order.statusCode, 201, order.body);
    assert.equal(order.json().amount, 11, 'the fee and first period of version 1, not the trial of version 2');
    const rec = await recurrent(ctx, String(order.json().recurrent_payment_id));
    assert.equal(rec.plan_version, 1);
    assert.equal(rec.amount, 10);
    assert.equal(rec.signup_fee_amount, 1);
    assert.equal(rec.trial_interval_count, 0);
    assert.equal(rec.status, 'ACTIVE');
  });
});
