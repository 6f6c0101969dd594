import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { beforeEach, test } from 'node:test';
import { sql } from 'kysely';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { getOrder } from '../support/payments.ts';
import type { StripeStandIn } from '../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';
import type { Subscribed } from '../support/stripe-subscriber.ts';
import * as subscriber from '../support/stripe-subscriber.ts';
import type { BuildOptions, TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/*
 * Card subscriptions of a merchant whose Stripe account is connected (test keys), against the
 * Stripe stand-in, which checks every request against Stripe's published request schemas:
 * the first payment keeps the card on a Stripe customer, renewals are off-session charges of it.
 */

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
});

const subscribe = (ctx: TestApp) => subscriber.subscribeByCard(ctx, standIn);
const payFirst = (ctx: TestApp, s: Subscribed) => subscriber.payFirst(ctx, standIn, s);
const awaitingPayer = (ctx: TestApp, s: Subscribed, words?: { subject: string; linkLabel: string }) =>
  subscriber.awaitingPayer(ctx, standIn, s, words);
const offSessionIntents = (s: Subscribed) => subscriber.offSessionIntents(standIn, s);
const offSessionRequests = (s: Subscribed) => subscriber.offSessionRequests(standIn, s);
const { billDue: bill, ordersOf: renewals, subscriptionOf: subscription } = subscriber;

const savedCard = async (ctx: TestApp, recId: string) =>
  (await ctx.cobro.database.uow.read.recurrentPayments.getById(recId))?.cardToken ?? null;

/** The same signature with its last character changed. */
const altered = (sig: string) => `${sig.slice(0, -1)}${sig.endsWith('A') ? 'B' : 'A'}`;

describeBackends('Card subscriptions through Stripe with the Stripe stand-in', (build) => {
  const buildWith = (t: TestContext, options: BuildOptions = {}) =>
    build(t, { ...options, env: { STRIPE_API_URL: standIn.url, STRIPE_TIMEOUT_MS: '300', ...options.env } });

  test('the first payment saves the card: a Stripe customer per subscriber, and the card paid with kept for renewals', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    const intent = standIn.paymentIntents.get(s.intentId);
    const customer = standIn.customers.get(String(intent?.customer));
    assert.ok(customer, 'the intent belongs to a customer');
    assert.equal(intent?.setup_future_usage, 'off_session');
    assert.deepEqual(customer.metadata, { cobro_recurrent_payment_id: s.recId });
    assert.equal(customer.email, 'ana@example.com');
    assert.equal(customer.name, 'Ana Souza');
    const created = standIn.requests.filter((r) => r.idempotencyKey === `cobro-cus-${s.recId}`);
    assert.equal(created.length, 1);
    assert.equal(created[0]?.operation, 'POST /v1/customers');
    assert.equal(await savedCard(ctx, s.recId), null, 'nothing is saved before the payment succeeds');

    await payFirst(ctx, s);
    const pm = String(standIn.paymentIntents.get(s.intentId)?.payment_method);
    assert.equal(await savedCard(ctx, s.recId), `stripe:${customer.id}:${pm}`);
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 1);
  });

  test('a renewal is an off-session charge of the saved card: CLOSED and the period paid, once however often the billing runs', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    const saved = String(await savedCard(ctx, s.recId)).split(':');
    await bill(ctx, s.recId);
    await ctx.cobro.billing.runBilling();
    await ctx.cobro.runJobs();

    const charges = offSessionIntents(s);
    assert.equal(charges.length, 1, 'one intent at Stripe');
    const sent = offSessionRequests(s);
    assert.equal(sent.length, 1, 'a later run asks nothing more of Stripe for a paid period');
    assert.equal(sent[0]?.idempotencyKey, `cobro-pi-renew-${s.recId}-1-1`);
    assert.deepEqual(
      { ...sent[0]?.params, metadata: undefined },
      {
        amount: 1200,
        currency: 'usd',
        payment_method_types: ['card'],
        description: 'Club del Té',
        customer: saved[1],
        payment_method: saved[2],
        off_session: true,
        confirm: true,
        metadata: undefined,
      },
    );
    const orders = await renewals(ctx, s.recId);
    const renewal = orders.find((o) => o.id !== s.first.id && o.status === 'CLOSED');
    assert.ok(renewal, JSON.stringify(orders));
    assert.equal((sent[0]?.params.metadata as Record<string, string> | undefined)?.cobro_payment_order_id, renewal.id);
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 2);
  });

  test('Stripe not answering leaves the try open; the next run asks again under the same key and the card is charged once', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    // Stripe is down for every try of the package (the first and its two retries).
    standIn.drop(/^\/v1\/payment_intents$/, 3);
    await bill(ctx, s.recId);
    const open = (await renewals(ctx, s.recId)).filter((o) => o.status === 'OPENED');
    assert.equal(open.length, 1, 'the renewal stays open');
    assert.equal((await subscription(ctx, s.recId)).periods_paid, 1);

    // The billing runs every second, but asks a Stripe that did not answer again only minutes later.
    const tries = () => standIn.requests.filter((r) => r.idempotencyKey === `cobro-pi-renew-${s.recId}-1-1`).length;
    const triedSoFar = tries();
    await ctx.cobro.billing.runBilling();
    assert.equal(tries(), triedSoFar, 'not asked again at once');
    ctx.clock.advance(5 * 60_000);
    await ctx.cobro.billing.runBilling();
    assert.equal(offSessionIntents(s).length, 1, 'one intent at Stripe');
    const keys = new Set(offSessionRequests(s).map((r) => r.idempotencyKey));
    assert.deepEqual([...keys], [`cobro-pi-renew-${s.recId}-1-1`]);
    assert.equal((await getOrder(ctx.app, ctx.merchant, open[0]?.id ?? '')).status, 'CLOSED');
    assert.equal((await subscription(ctx, s.recId)).periods_paid, 2);
  });

  test('a 500 from Stripe, which it replays under the key, ends the try into the retries: the next try charges once', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    standIn.fail(/^\/v1\/payment_intents$/, 500);
    const lists = () => standIn.requests.filter((r) => r.operation === 'GET /v1/payment_intents').length;
    const listedBefore = lists();
    await bill(ctx, s.recId);
    const [failed] = (await renewals(ctx, s.recId)).filter((o) => o.status === 'REJECTED' && o.id !== s.first.id);
    assert.equal(failed?.failure_code, 'processor_error');
    assert.equal((await subscription(ctx, s.recId)).status, 'UNPAID');
    assert.equal(lists(), listedBefore + 1, 'Stripe was asked whether the failed call made an intent');
    assert.equal(offSessionIntents(s).length, 0);

    await bill(ctx, s.recId);
    assert.equal(offSessionIntents(s).length, 1);
    assert.equal(
      standIn.requests.filter((r) => r.idempotencyKey === `cobro-pi-renew-${s.recId}-1-2`).length,
      1,
      'the retry is a new try with its own key',
    );
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 2);
  });

  test('a declined renewal is REJECTED into the dunning; the retry, a new try with its own key, succeeds', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    standIn.nextOffSession('decline');
    await bill(ctx, s.recId);
    const [declined] = (await renewals(ctx, s.recId)).filter((o) => o.status === 'REJECTED' && o.id !== s.first.id);
    assert.equal(declined?.failure_code, 'insufficient_funds');
    const unpaid = await subscription(ctx, s.recId);
    assert.equal(unpaid.status, 'UNPAID');
    assert.equal(unpaid.periods_paid, 1);

    await bill(ctx, s.recId);
    const keys = offSessionRequests(s).map((r) => r.idempotencyKey);
    assert.deepEqual(keys, [`cobro-pi-renew-${s.recId}-1-1`, `cobro-pi-renew-${s.recId}-1-2`]);
    assert.equal(offSessionIntents(s).filter((i) => i.status === 'succeeded').length, 1);
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 2);
  });

  test('a renewal the bank wants the payer for stays open; the payer gets a mail in their language, confirms on the page, and the return page says paid', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    // Ana subscribed on the Spanish checkout.
    await sql`update recurrent_payments set payer_language = 'es' where id = ${s.recId}`.execute(ctx.cobro.database.db);
    const { order, path, mail } = await awaitingPayer(ctx, s, {
      subject: 'Confirma tu pago',
      linkLabel: 'Confirma el pago aquí:',
    });
    // While the payer's bank waits, the billing asks Stripe about the renewal once per five minutes.
    const intentId = String(offSessionIntents(s)[0]?.id);
    const asked = () => standIn.requests.filter((r) => r.path === `/v1/payment_intents/${intentId}`).length;
    const askedSoFar = asked();
    await ctx.cobro.billing.runBilling();
    await ctx.cobro.billing.runBilling();
    assert.equal(asked(), askedSoFar);
    ctx.clock.advance(5 * 60_000);
    await ctx.cobro.billing.runBilling();
    await ctx.cobro.billing.runBilling();
    assert.equal(asked(), askedSoFar + 1);
    assert.equal((await subscription(ctx, s.recId)).status, 'ACTIVE');
    const mails = await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: ctx.merchant.authHeaders });
    assert.equal(
      (mails.json().data as { text: string }[]).filter((m) => m.text.includes(order.id)).length,
      1,
      'one mail, however often the billing runs',
    );
    assert.equal(mail.to, 'ana@example.com');
    assert.match(mail.text, /Tu banco pide que confirmes la renovación de "Club del Té"/);
    assert.equal(path.split('?')[0], `/subscriptions/${s.recId}/renewals/${order.id}`);

    const page = await ctx.app.inject({ url: path, headers: { 'accept-language': 'es' } });
    assert.equal(page.statusCode, 200, page.body);
    const intent = offSessionIntents(s)[0];
    assert.ok(intent);
    assert.match(page.body, /<script src="https:\/\/js\.stripe\.com\/v3\/"/);
    assert.ok(page.body.includes(String(intent.client_secret)), 'the page mounts the intent’s client secret');
    assert.match(String(page.headers['content-security-policy']), /script-src 'nonce-[^']+' https:\/\/js\.stripe\.com/);
    assert.match(
      String(page.headers['content-security-policy']),
      /frame-src https:\/\/js\.stripe\.com [^;]*https:\/\/hooks\.stripe\.com/,
    );
    assert.match(page.body, /<html lang="es">/);

    // The payer confirms with their bank in Stripe's window; Stripe.js then returns to Cobro.
    standIn.succeed(intent.id);
    const [pathname, search] = path.split('?');
    const back = await ctx.app.inject({
      url: `${pathname}/return?${search}&payment_intent=${intent.id}`,
      headers: { 'accept-language': 'es' },
    });
    assert.equal(back.statusCode, 200, back.body);
    assert.match(back.body, /data-test="renewal-paid"/);
    assert.match(back.body, /Pago confirmado/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'CLOSED');
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.periods_paid, 2);
    // The verified event arriving afterwards changes nothing more.
    const late = await s.post(
      standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.paymentIntents.get(intent.id) ?? {}),
    );
    assert.equal(late.statusCode, 200);
    assert.equal((await subscription(ctx, s.recId)).periods_paid, 2);
  });

  test('the confirmation link is refused for another order or another subscription, or with a changed signature', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    const { path } = await awaitingPayer(ctx, s);
    const link = new URL(path, 'http://cobro.invalid');
    const [, , recId, , orderId] = link.pathname.split('/');
    const sig = link.searchParams.get('sig') ?? '';
    assert.equal((await ctx.app.inject({ url: path })).statusCode, 200);
    for (const wrong of [
      `/subscriptions/${recId}/renewals/${s.first.id}?sig=${sig}`,
      `/subscriptions/${newId()}/renewals/${orderId}?sig=${sig}`,
      `/subscriptions/${recId}/renewals/${orderId}?sig=${altered(sig)}`,
      `/subscriptions/${recId}/renewals/${orderId}`,
      `/subscriptions/${recId}/renewals/${orderId}/return?sig=${altered(sig)}`,
    ]) {
      const res = await ctx.app.inject({ url: wrong });
      assert.equal(res.statusCode, 404, wrong);
      assert.doesNotMatch(res.body, /js\.stripe\.com|_secret_/);
    }
  });

  test('the payer confirmed but never came back: the verified event closes the renewal and pays the period', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    const { order } = await awaitingPayer(ctx, s);
    const [intent] = offSessionIntents(s);
    assert.ok(intent);
    const res = await s.post(standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.succeed(intent.id)));
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'CLOSED');
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 2);
  });

  test('a payer who does not confirm within three days fails the try into the retries, which are due by then: the retry is charged', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    const { order, path } = await awaitingPayer(ctx, s);
    ctx.clock.advance(3 * 24 * 3_600_000);
    await ctx.cobro.billing.runBilling();
    const failed = await getOrder(ctx.app, ctx.merchant, order.id);
    assert.equal(failed.status, 'REJECTED');
    assert.equal(failed.failure_code, 'authentication_required');
    // The mail's link now says there is nothing to confirm.
    const page = await ctx.app.inject({ url: path });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /data-test="renewal-closed"/);
    assert.doesNotMatch(page.body, /js\.stripe\.com|_secret_/);
    // The first retry (a day after the due date) is already due: the same run charged it, with its own key.
    assert.deepEqual(
      offSessionRequests(s).map((r) => r.idempotencyKey),
      [`cobro-pi-renew-${s.recId}-1-1`, `cobro-pi-renew-${s.recId}-1-2`],
    );
    const rec = await subscription(ctx, s.recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 2);
  });

  test('cancelling while a renewal waits for the payer rejects it: its page no longer offers to pay', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    const { order, path } = await awaitingPayer(ctx, s);
    const canceled = await ctx.app.inject({
      method: 'DELETE',
      url: `/v1/recurrent_payments/${s.recId}`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(canceled.statusCode, 200, canceled.body);
    const withdrawn = await getOrder(ctx.app, ctx.merchant, order.id);
    assert.equal(withdrawn.status, 'REJECTED');
    assert.equal(withdrawn.failure_code, 'canceled');
    const page = await ctx.app.inject({ url: path });
    assert.match(page.body, /data-test="renewal-closed"/);
  });

  test('cancelling after a renewal charge whose answer was lost asks Stripe: the charge it made closes the renewal', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    // The charge is made at Stripe but its answer never comes, and the package's retries find Stripe down.
    standIn.hang(/^\/v1\/payment_intents$/, 1);
    standIn.drop(/^\/v1\/payment_intents$/, 2);
    await bill(ctx, s.recId);
    const [open] = (await renewals(ctx, s.recId)).filter((o) => o.status === 'OPENED');
    assert.ok(open, 'the renewal stays open');
    assert.equal(offSessionIntents(s)[0]?.status, 'succeeded', 'Stripe charged the card');
    const canceled = await ctx.app.inject({
      method: 'DELETE',
      url: `/v1/recurrent_payments/${s.recId}`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, open.id)).status, 'CLOSED');
    assert.equal(offSessionIntents(s).length, 1);
  });

  test('after the merchant disconnects Stripe, a renewal of a card kept there fails into the retries, and nothing is charged elsewhere', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    await ctx.cobro.services.connectors.removal.remove(ctx.merchant.id, 'stripe', 'test', CLI_ACTOR);
    await bill(ctx, s.recId);
    const [failed] = (await renewals(ctx, s.recId)).filter((o) => o.status === 'REJECTED' && o.id !== s.first.id);
    assert.equal(failed?.failure_code, 'card_connector_missing');
    assert.equal((await subscription(ctx, s.recId)).status, 'UNPAID');
    assert.equal(offSessionRequests(s).length, 0);
  });

  test('the subscriber page offers no card form for a card kept at Stripe, and a posted card is refused unread', async (t) => {
    const ctx = await buildWith(t);
    const s = await subscribe(ctx);
    await payFirst(ctx, s);
    const before = await savedCard(ctx, s.recId);
    const { url } = (
      await ctx.app.inject({
        url: `/v1/test_helpers/recurrent_payments/${s.recId}/payer_link`,
        headers: ctx.merchant.authHeaders,
      })
    ).json() as { url: string };
    const link = new URL(url);
    const page = await ctx.app.inject({ url: `${link.pathname}${link.search}` });
    assert.equal(page.statusCode, 200, page.body);
    assert.doesNotMatch(page.body, /name="card_number"/);
    await assert.rejects(
      ctx.cobro.services.payerPortal.changeCard(s.recId, link.searchParams.get('sig'), {
        number: '4242424242424242',
        expiry: '12/34',
        cvc: '123',
        holderName: 'Ana Souza',
      }),
      /kept by the merchant's card processor/,
    );
    assert.equal(await savedCard(ctx, s.recId), before);
  });
});
