import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { beforeEach, test } from 'node:test';
import { sql } from 'kysely';
import { signedInMember } from '../support/dashboard-client.ts';
import { getOrder } from '../support/payments.ts';
import { paidConnectedCardOrder } from '../support/stripe-orders.ts';
import type { StripeStandIn } from '../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';
import type { BuildOptions, TestApp } from '../support/test-app.ts';
import { describeBackends, testMerchant } from '../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../support/webhook-receiver.ts';

/*
 * After a card payment taken through the merchant's own Stripe account (INTERFACE §11.1):
 * refunds from the API and the dashboard, refunds made in Stripe's dashboard, and disputes,
 * against the Stripe stand-in (which checks every request against Stripe's published contract).
 */

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
  standIn.refundStatus = 'succeeded';
});

describeBackends('Refunds and disputes through Stripe, with the Stripe stand-in', (build) => {
  const buildWith = (t: TestContext, options: BuildOptions = {}) =>
    build(t, { ...options, env: { STRIPE_API_URL: standIn.url, STRIPE_TIMEOUT_MS: '500', ...options.env } });

  const refundOrder = (ctx: TestApp, orderId: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${orderId}/refunds`,
      headers: { ...ctx.merchant.authHeaders, ...headers },
      payload: { reason: 'returned' },
    });

  const eventsOf = async (ctx: TestApp, orderId: string, type: string) =>
    Number(
      (
        await sql<{
          n: bigint;
        }>`select count(*) as n from events where entity_id = ${orderId} and event_type = ${type}`.execute(
          ctx.cobro.database.db,
        )
      ).rows[0]?.n ?? 0,
    );

  const refundsAtStripe = (intentId: string) =>
    [...standIn.refunds.values()].filter((r) => r.payment_intent === intentId);

  /** The refund requests Cobro sent for this order (the stand-in serves every test of the file). */
  const refundCalls = (orderId: string) =>
    standIn.requests.filter((r) => r.operation === 'POST /v1/refunds' && r.idempotencyKey === `cobro-re-${orderId}`);

  const refundRow = async (ctx: TestApp, orderId: string) => ctx.cobro.database.uow.read.cardRefunds.get(orderId);

  test('a refund from the API refunds the payment at Stripe, keyed by the order, and the order is REFUNDED with one event', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const res = await refundOrder(ctx, s.order.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'REFUNDED');
    assert.ok(res.json().refunded_at);
    const [refund, ...more] = refundsAtStripe(s.intent.id);
    assert.equal(more.length, 0, 'one refund at Stripe');
    assert.equal(refund?.status, 'succeeded');
    const [call, ...others] = standIn.requests.filter(
      (r) => r.operation === 'POST /v1/refunds' && (r.params.payment_intent as string) === s.intent.id,
    );
    assert.equal(others.length, 0);
    assert.equal(call?.idempotencyKey, `cobro-re-${s.order.id}`);
    assert.deepEqual(call?.params, {
      payment_intent: s.intent.id,
      metadata: { cobro_payment_order_id: s.order.id },
    });
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
    assert.equal((await refundRow(ctx, s.order.id))?.status, 'SUCCEEDED');

    // Asked again (a new request, not a replay): the order is no longer CLOSED, and Stripe is not asked.
    const again = await refundOrder(ctx, s.order.id);
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'CONFLICT');
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
    assert.equal(refundCalls(s.order.id).length, 1);

    // Stripe's charge.refunded for that same refund, arriving afterwards, changes nothing.
    const event = await s.post(standIn.event(s.endpoint, 'charge.refunded', standIn.charge(s.intent.id)));
    assert.equal(event.statusCode, 200, event.body);
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
  });

  test('two refunds at once make one refund at Stripe; the order is REFUNDED once', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const answers = await Promise.all([refundOrder(ctx, s.order.id), refundOrder(ctx, s.order.id)]);
    const codes = answers.map((a) => a.statusCode).sort();
    assert.ok(codes.includes(200), answers.map((a) => a.body).join('\n'));
    for (const answer of answers) {
      assert.ok([200, 409].includes(answer.statusCode), answer.body);
    }
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'REFUNDED');
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
  });

  test('a refund Stripe leaves pending keeps the order CLOSED until the verified charge.refunded event; then REFUNDED once', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    standIn.refundStatus = 'pending';
    const res = await refundOrder(ctx, s.order.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'CLOSED', 'the refund is recorded, the order waits for Stripe');
    const row = await refundRow(ctx, s.order.id);
    assert.equal(row?.status, 'PENDING');
    assert.equal(row?.source, 'COBRO');
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 0);

    // The event comes while Stripe still has it pending: Cobro asks, and the order waits.
    const early = await s.post(standIn.event(s.endpoint, 'charge.refunded', standIn.charge(s.intent.id)));
    assert.equal(early.statusCode, 200, early.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');

    const [refund] = refundsAtStripe(s.intent.id);
    standIn.settleRefund(String(refund?.id));
    const done = standIn.event(s.endpoint, 'charge.refunded', standIn.charge(s.intent.id));
    assert.equal((await s.post(done)).statusCode, 200);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'REFUNDED');
    assert.equal((await refundRow(ctx, s.order.id))?.status, 'SUCCEEDED');
    const twice = await s.post(done);
    assert.deepEqual(twice.json(), { received: true, duplicate: true });
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
  });

  test('a pending refund whose event never comes is found done by the card-refund-sync job, or by a retry of the refund', async (t) => {
    const ctx = await buildWith(t);
    standIn.refundStatus = 'pending';
    const byJob = await paidConnectedCardOrder(ctx, standIn);
    const byRetry = await paidConnectedCardOrder(ctx, standIn, 25, byJob);
    for (const s of [byJob, byRetry]) {
      assert.equal((await refundOrder(ctx, s.order.id)).json().status, 'CLOSED');
      standIn.settleRefund(String(refundsAtStripe(s.intent.id)[0]?.id));
    }
    const { refunds } = ctx.cobro.services.connectors;
    // Not due yet: the job leaves it for its next turn.
    await refunds.sync();
    assert.equal((await getOrder(ctx.app, ctx.merchant, byJob.order.id)).status, 'CLOSED');

    // A retry asks Stripe about the refund it made, and makes no other.
    const retried = await refundOrder(ctx, byRetry.order.id);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.json().status, 'REFUNDED');
    const retriedRefund = String(refundsAtStripe(byRetry.intent.id)[0]?.id);
    assert.ok(standIn.requests.some((r) => r.path === `/v1/refunds/${retriedRefund}`));

    ctx.clock.advance(31_000);
    await refunds.sync();
    assert.equal((await getOrder(ctx.app, ctx.merchant, byJob.order.id)).status, 'REFUNDED');
    for (const s of [byJob, byRetry]) {
      assert.equal(refundsAtStripe(s.intent.id).length, 1);
      assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
    }
  });

  test('a refund Stripe made whose order was never moved (the process stopped in between) is moved once by the job', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const { refunds } = ctx.cobro.services.connectors;
    // The step the refund service takes before the order moves: Stripe refunds, Cobro records it pending.
    const caller = { merchantId: ctx.merchant.id, mode: 'test' as const, key: ctx.merchant.apiKey };
    const closed = await ctx.cobro.services.orders.get(caller, s.order.id);
    assert.equal(await refunds.refund(closed), 'REFUNDED');
    assert.equal((await refundRow(ctx, s.order.id))?.status, 'PENDING');
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
    ctx.clock.advance(31_000);
    await refunds.sync();
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'REFUNDED');
    assert.equal((await refundRow(ctx, s.order.id))?.status, 'SUCCEEDED');
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
  });

  test('a pending refund Stripe then fails (refund.updated) leaves the order CLOSED and says why on the connection', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    standIn.refundStatus = 'pending';
    await refundOrder(ctx, s.order.id);
    const failed = standIn.settleRefund(String(refundsAtStripe(s.intent.id)[0]?.id), 'failed');
    const res = await s.post(standIn.event(s.endpoint, 'refund.updated', failed));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
    assert.equal((await refundRow(ctx, s.order.id))?.status, 'FAILED');
    const [conn] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.match(
      conn?.lastError ?? '',
      new RegExp(`the refund of order ${s.order.id} was not made by stripe \\(failed\\)`),
    );

    // Asked again within Stripe's day: the key gives back that failed refund, never a new one.
    const again = await refundOrder(ctx, s.order.id);
    assert.equal(again.statusCode, 409, again.body);
    assert.match(again.json().messages[0], /stripe did not make the refund \(failed\); the order stays CLOSED/);
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
  });

  test('a refund naming an amount is refused as a partial refund, and nothing is asked of Stripe', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${s.order.id}/refunds`,
      headers: ctx.merchant.authHeaders,
      payload: { amount: 5, reason: 'one cup broke' },
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.deepEqual(res.json(), {
      code: 'WRONG_INPUT',
      messages: ['amount: partial refunds are not supported; send no amount to refund the whole order'],
    });
    assert.equal(refundCalls(s.order.id).length, 0);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
  });

  test('Stripe refusing a refund is a 409 with its reason; the order stays CLOSED', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    standIn.refundStatus = 'failed';
    const res = await refundOrder(ctx, s.order.id);
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, 'CONFLICT');
    assert.match(res.json().messages[0], /stripe did not make the refund \(failed\); the order stays CLOSED/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 0);
  });

  test('Stripe turning the refund away (429) is a 503 that changes nothing; the retry refunds with the same key', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    standIn.refuse(/^\/v1\/refunds$/, 429);
    const res = await refundOrder(ctx, s.order.id);
    assert.equal(res.statusCode, 503, res.body);
    assert.equal(res.json().code, 'SERVICE_UNAVAILABLE');
    assert.match(res.json().messages[0], /^stripe refund: Stripe could not be reached or answered an error/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
    assert.equal(await refundRow(ctx, s.order.id), undefined);
    assert.equal(refundsAtStripe(s.intent.id).length, 0);

    const retried = await refundOrder(ctx, s.order.id);
    assert.equal(retried.statusCode, 200, retried.body);
    assert.equal(retried.json().status, 'REFUNDED');
    const calls = standIn.requests.filter(
      (r) => r.operation === 'POST /v1/refunds' && (r.params.payment_intent as string) === s.intent.id,
    );
    assert.equal(calls.length, 2);
    assert.ok(calls.every((r) => r.idempotencyKey === `cobro-re-${s.order.id}`));
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
  });

  test('a 500 from Stripe is a 503 that changes nothing; Stripe keeps it under the key, so a retry cannot refund twice', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    standIn.fail(/^\/v1\/refunds$/, 500);
    for (let i = 0; i < 2; i++) {
      const res = await refundOrder(ctx, s.order.id);
      assert.equal(res.statusCode, 503, res.body);
      assert.equal(res.json().code, 'SERVICE_UNAVAILABLE');
    }
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
    assert.equal(refundsAtStripe(s.intent.id).length, 0);
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 0);
  });

  test('an answer lost to a timeout: the client retries with the same key and gets the refund Stripe made, never a second', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    standIn.hang(/^\/v1\/refunds$/);
    const res = await refundOrder(ctx, s.order.id);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'REFUNDED');
    assert.equal(refundCalls(s.order.id).length, 2);
    assert.equal(refundsAtStripe(s.intent.id).length, 1);
  });

  test("another merchant's order, or the other mode's, is a 404 and nothing is asked of Stripe", async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const other = await ctx.createMerchant('test');
    const live = testMerchant(await ctx.cobro.services.merchants.createKeyPair(ctx.merchant.id, 'live'), 'live');
    for (const caller of [other, live]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/v1/payment_orders/${s.order.id}/refunds`,
        headers: caller.authHeaders,
        payload: {},
      });
      assert.equal(res.statusCode, 404, res.body);
      assert.equal(res.json().code, 'NOT_FOUND');
    }
    assert.equal(refundCalls(s.order.id).length, 0);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
  });

  test("a full refund made in Stripe's dashboard arrives as charge.refunded: recorded, the order REFUNDED once", async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const event = standIn.event(s.endpoint, 'charge.refunded', standIn.refundInDashboard(s.intent.id));
    const res = await s.post(event);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'REFUNDED');
    const row = await refundRow(ctx, s.order.id);
    assert.equal(row?.source, 'PROCESSOR');
    assert.equal(row?.status, 'SUCCEEDED');
    assert.deepEqual((await s.post(event)).json(), { received: true, duplicate: true });
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.REFUNDED'), 1);
    assert.equal(refundCalls(s.order.id).length, 0);
  });

  test("a partial refund made in Stripe's dashboard is recorded; the order stays CLOSED and the connection says why", async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const res = await s.post(standIn.event(s.endpoint, 'charge.refunded', standIn.refundInDashboard(s.intent.id, 500)));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
    const [conn] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.match(
      conn?.lastError ?? '',
      /500 of 2500 USD \(minor units\) of charge ch_\w+ of order \w+ was refunded in stripe's dashboard; Cobro records full refunds only/,
    );
    // A refund from Cobro now would be of the rest; Stripe refuses it, and the order stays as it is.
    const refund = await refundOrder(ctx, s.order.id);
    assert.equal(refund.statusCode, 409, refund.body);
    assert.match(refund.json().messages[0], /has already been refunded/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
  });

  test('a dispute is recorded on its order, sent once to the merchant as PAYMENT_ORDER.DISPUTED, and shown on the dashboard order page', async (t) => {
    const ctx = await buildWith(t, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: ctx.merchant.authHeaders,
      payload: { url: `${receiver.url}/hooks` },
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const closed = await getOrder(ctx.app, ctx.merchant, s.order.id);
    const due = Math.floor(Date.parse('2026-12-04T10:00:00Z') / 1000);
    const dispute = standIn.dispute(s.intent.id, { reason: 'product_not_received', dueBy: due });
    const event = standIn.event(s.endpoint, 'charge.dispute.created', dispute);
    const first = await s.post(event);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { received: true, duplicate: false });
    assert.deepEqual((await s.post(event)).json(), { received: true, duplicate: true });
    // The same dispute in another event (Stripe resends under a new id only for a new event): still once.
    await s.post(standIn.event(s.endpoint, 'charge.dispute.created', dispute));

    const after = await getOrder(ctx.app, ctx.merchant, s.order.id);
    assert.equal(after.status, 'CLOSED', 'a dispute does not change the status: Stripe holds the money');
    assert.equal(after.sequence, closed.sequence + 1);
    const recorded = await ctx.cobro.database.uow.read.cardDisputes.listForOrder(s.order.id);
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]?.reason, 'product_not_received');

    await drainWebhooks(ctx.cobro);
    const disputed = receiver.received
      .map((r) => JSON.parse(r.body) as Record<string, unknown>)
      .filter((b) => b.event_type === 'PAYMENT_ORDER.DISPUTED');
    assert.equal(disputed.length, 1, receiver.received.map((r) => r.body).join('\n'));
    const body = disputed[0] as Record<string, unknown>;
    assert.equal(body.payment_order_id, s.order.id);
    assert.equal(body.status, 'CLOSED');
    assert.equal(body.sequence, closed.sequence + 1);
    assert.deepEqual(body.dispute, {
      id: dispute.id,
      provider: 'stripe',
      reason: 'product_not_received',
      status: 'needs_response',
      amount: 25,
      currency: 'USD',
      evidence_due_by: '2026-12-04T10:00:00Z',
    });

    const browser = await signedInMember(ctx, 'owner');
    const page = await browser.get(`/dashboard/test/payment_orders/${s.order.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="dispute"/);
    assert.match(page.body, /Disputed by the payer/);
    assert.match(page.body, /product_not_received/);
    const es = await browser.get(`/dashboard/test/payment_orders/${s.order.id}`, { 'accept-language': 'es' });
    assert.match(es.body, /Disputado por el pagador/);
    assert.match(es.body, /Stripe retiene el dinero disputado/);
    const pt = await browser.get(`/dashboard/test/payment_orders/${s.order.id}`, { 'accept-language': 'pt-BR' });
    assert.match(pt.body, /Contestado pelo pagador/);
  });

  test('a dispute about an intent of no order of this merchant is answered 2xx and changes nothing', async (t) => {
    const ctx = await buildWith(t);
    const s = await paidConnectedCardOrder(ctx, standIn);
    const foreign = { ...standIn.dispute(s.intent.id), payment_intent: 'pi_madeElsewhere000' };
    const res = await s.post(standIn.event(s.endpoint, 'charge.dispute.created', foreign));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await eventsOf(ctx, s.order.id, 'PAYMENT_ORDER.DISPUTED'), 0);
    const outcome = await sql<{
      outcome: string;
    }>`select outcome from connector_events where type = 'charge.dispute.created' and merchant_id = ${ctx.merchant.id}`.execute(
      ctx.cobro.database.db,
    );
    assert.deepEqual(
      outcome.rows.map((r) => r.outcome),
      ['unknown_intent'],
    );
  });

  test('the dashboard refunds a Stripe-paid order through its confirmation form; a pending one says so', async (t) => {
    const ctx = await buildWith(t);
    const browser = await signedInMember(ctx, 'owner');
    const T = '/dashboard/test';
    const paid = await paidConnectedCardOrder(ctx, standIn);
    const ask = await browser.get(`${T}/payment_orders/${paid.order.id}/refund`);
    assert.equal(ask.statusCode, 200, ask.body);
    const done = await browser.post(`${T}/payment_orders/${paid.order.id}/refund`, { reason: 'Customer asked' });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, `${T}/payment_orders/${paid.order.id}?done=refunded`);
    assert.equal((await getOrder(ctx.app, ctx.merchant, paid.order.id)).status, 'REFUNDED');
    assert.equal(refundsAtStripe(paid.intent.id).length, 1);

    standIn.refundStatus = 'pending';
    const slow = await paidConnectedCardOrder(ctx, standIn, 25, paid);
    await browser.get(`${T}/payment_orders/${slow.order.id}/refund`);
    const pending = await browser.post(`${T}/payment_orders/${slow.order.id}/refund`, { reason: '' });
    assert.equal(pending.statusCode, 303, pending.body);
    assert.equal(pending.headers.location, `${T}/payment_orders/${slow.order.id}?done=refund_pending`);
    const page = await browser.get(String(pending.headers.location));
    assert.match(page.body, /data-test="notice">The refund is asked for: the processor is still processing it/);

    // Stripe down: the form comes back with the reason, and nothing changed.
    const down = await paidConnectedCardOrder(ctx, standIn, 25, paid);
    standIn.refuse(/^\/v1\/refunds$/, 429);
    await browser.get(`${T}/payment_orders/${down.order.id}/refund`);
    const refused = await browser.post(`${T}/payment_orders/${down.order.id}/refund`, { reason: 'x' });
    assert.equal(refused.statusCode, 503, refused.body);
    assert.match(refused.body, /stripe refund: Stripe could not be reached/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, down.order.id)).status, 'CLOSED');
  });
});
