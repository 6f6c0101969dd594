import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { beforeEach, test } from 'node:test';
import { sql } from 'kysely';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { messagesFor } from '../../src/web/kit/payer-messages.ts';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import { logSink } from '../support/log-sink.ts';
import type { Session } from '../support/page-forms.ts';
import { cookieFrom, OUR_ORIGIN, postForm, tokenFrom } from '../support/page-forms.ts';
import { advanceClock, getOrder } from '../support/payments.ts';
import { connectStripe } from '../support/stripe-orders.ts';
import type { StripeStandIn } from '../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';
import { billDue, ordersOf } from '../support/stripe-subscriber.ts';
import type { BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';
import { BANK_DETAILS, describeBackends } from '../support/test-app.ts';
import { get, USD_BANK_TRANSFER_ID, USD_CARD_ID } from './helpers.ts';

const BRL_CARD_ID = 'JoXsCfh6Z26TELZaLW4iNv';

/*
 * Card payments on the hosted checkout through the merchant's own Stripe account (INTERFACE
 * §11.1), against the Stripe stand-in: plain form posts up to the card step, which carries what
 * Stripe.js needs to mount the Payment Element; the stand-in plays what Stripe does when the
 * payer confirms (succeed, decline, 3-D Secure, processing); the return page and the settle job
 * ask Stripe server side. Every request Cobro sends is checked against Stripe's published
 * request schemas (no violations after each test).
 */

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
});

const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };
const CARD_FIELDS = {
  card_number: '4242424242424242',
  card_expiry: '12/39',
  card_cvc: '123',
  card_holder_name: 'Ana Lima',
};
const en = messagesFor('en');
const es = messagesFor('es');

describeBackends('card payments through the merchant’s Stripe on the hosted checkout (Stripe stand-in)', (build) => {
  const buildWith = (t: TestContext, options: BuildOptions = {}) =>
    build(t, { ...options, env: { STRIPE_API_URL: standIn.url, ...options.env } });

  /** The merchant's Stripe account connected (test keys unless `live`), as `cobro connect stripe` does. */
  const connect = (ctx: TestApp, merchant: TestMerchant, live = false) => connectStripe(ctx, standIn, merchant, live);

  /** A checkout of 25 USD (card or bank transfer), opened in a browser: its page and the form's session. */
  async function openCheckout(ctx: TestApp, merchant: TestMerchant, body: Record<string, unknown> = {}) {
    const pref = await createPreference(ctx.app, merchant, {
      amount: 25,
      currency: 'USD',
      payment_method_types: ['CARD', 'BANK_TRANSFER'],
      ...body,
    });
    const page = await ctx.app.inject({ method: 'GET', url: `/checkout/${pref.id}` });
    assert.equal(page.statusCode, 200, page.body);
    const session: Session = { cookie: cookieFrom(page) ?? '', token: tokenFrom(page.body) };
    return { pref, page, session };
  }

  /** Card chosen with the payer's details, by a plain form post: where the checkout sends the payer. */
  async function chooseCard(
    ctx: TestApp,
    prefId: string,
    session: Session,
    fields: Record<string, string> = {},
  ): Promise<string> {
    const res = await postForm(ctx.app, `/checkout/${prefId}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      ...fields,
    });
    assert.equal(res.statusCode, 303, res.body);
    return String(res.headers.location);
  }

  const view = (ctx: TestApp, url: string, headers: Record<string, string> = {}) =>
    ctx.app.inject({ method: 'GET', url, headers });

  /** A GET as a browser makes it: a 303 to one of our pages is followed. */
  async function browse(ctx: TestApp, url: string, headers: Record<string, string> = {}) {
    const res = await view(ctx, url, headers);
    const location = String(res.headers.location ?? '');
    return res.statusCode === 303 && location.startsWith('/') ? view(ctx, location, headers) : res;
  }

  /** What the card step gives Stripe.js, read from the page as a checker outside would. */
  function stripeData(body: string): Record<string, string> {
    const form = /<form id="stripe-payment-form"[^>]*>/.exec(body)?.[0];
    assert.ok(form, `no Payment Element form on the page: ${body.slice(0, 300)}`);
    const decode = (value: string) =>
      value.replace(
        /&(quot|#39|amp|lt|gt);/g,
        (_all, e: string) => ({ quot: '"', '#39': "'", amp: '&', lt: '<', gt: '>' })[e] ?? '',
      );
    return Object.fromEntries(
      [...form.matchAll(/data-stripe-([a-z-]+)="([^"]*)"/g)].map(([, name = '', value = '']) => [name, decode(value)]),
    );
  }

  /** A test merchant connected to Stripe, a checkout, Card chosen: the order's page and its intent. */
  async function cardStep(ctx: TestApp, options: { merchant?: TestMerchant; live?: boolean } = {}) {
    const merchant = options.merchant ?? ctx.merchant;
    const connection = await connect(ctx, merchant, options.live);
    const checkout = await openCheckout(ctx, merchant);
    const orderUrl = await chooseCard(ctx, checkout.pref.id, checkout.session);
    const orderId = /\/orders\/([A-Za-z0-9]+)$/.exec(orderUrl)?.[1] ?? '';
    const page = await view(ctx, orderUrl);
    assert.equal(page.statusCode, 200, page.body);
    const data = stripeData(page.body);
    const intentId = data.intent ?? '';
    assert.ok(standIn.paymentIntents.has(intentId), 'the page names the intent Cobro created');
    const returnUrl = `${orderUrl}/card/return`;
    return { ...connection, ...checkout, merchant, orderUrl, orderId, page, data, intentId, returnUrl };
  }

  const intentsOf = (accountId: string) => [...standIn.paymentIntents.values()].filter((i) => i.account === accountId);

  const closedEvents = async (ctx: TestApp, orderId: string) =>
    Number(
      (
        await sql<{
          n: bigint;
        }>`select count(*) as n from events where entity_id = ${orderId} and event_type = 'PAYMENT_ORDER.CLOSED'`.execute(
          ctx.cobro.database.db,
        )
      ).rows[0]?.n ?? 0,
    );

  test('Card chosen by plain form posts opens the order without card data and shows Stripe’s Payment Element with one intent, however often the payer reloads or posts again', async (t) => {
    const sink = logSink();
    const ctx = await buildWith(t, { productionLogger: true, logStream: sink.stream, env: { LOG_LEVEL: 'trace' } });
    const s = await cardStep(ctx);

    // What Stripe.js needs, on the page; the intent is the one created for this order.
    assert.equal(s.data['publishable-key'], s.account.publishableKey);
    const intent = standIn.paymentIntents.get(s.intentId);
    assert.equal(s.data['client-secret'], intent?.client_secret);
    assert.equal(s.data['return-url'], `${OUR_ORIGIN}${s.returnUrl}`);
    assert.equal(s.data.locale, 'en');
    assert.equal(JSON.parse(s.data.appearance ?? '{}').theme, 'stripe');
    assert.equal((intent?.metadata as Record<string, string> | undefined)?.cobro_payment_order_id, s.orderId);
    assert.equal(intent?.amount, 2500);
    assert.match(s.page.body, /data-test="card-needs-javascript"/);
    assert.ok(s.page.body.includes(en.hostedCard.needsJavaScript));

    // Reloading the card step and posting the same details again: the same order, the same intent.
    assert.equal(stripeData((await view(ctx, s.orderUrl)).body).intent, s.intentId);
    assert.equal(await chooseCard(ctx, s.pref.id, s.session, CARD_FIELDS), s.orderUrl);
    assert.equal(intentsOf(s.account.id).length, 1);
    const creations = standIn.requests.filter(
      (r) =>
        r.operation === 'POST /v1/payment_intents' &&
        (r.params.metadata as Record<string, string> | undefined)?.cobro_payment_order_id === s.orderId,
    );
    assert.ok(creations.length > 0);
    assert.ok(creations.every((r) => r.idempotencyKey === `cobro-pi-${s.orderId}`));

    // The order as the merchant sees it: open, paid by nothing yet, no card anywhere.
    const order = await getOrder(ctx.app, ctx.merchant, s.orderId);
    assert.equal(order.status, 'OPENED');
    assert.equal(JSON.stringify(order).includes('4242'), false);
    // The card number posted to Cobro went nowhere: not to Stripe, not to the logs.
    assert.ok(standIn.requests.every((r) => !JSON.stringify(r.params).includes('4242424242424242')));
    assert.ok(sink.lines.every((line) => !line.includes('4242424242424242')));
    // The checkout's form never renders card fields of its own for this merchant.
    const form = await view(ctx, `/checkout/${s.pref.id}`);
    assert.doesNotMatch(form.body, /name="card_number"/);
  });

  test('the card step alone allows Stripe.js in its Content-Security-Policy; the checkout form and every other page keep the strict one', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    const csp = String(s.page.headers['content-security-policy']);
    assert.match(csp, /script-src 'nonce-[^']+' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com(;|$)/);
    assert.match(
      csp,
      /frame-src https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com https:\/\/hooks\.stripe\.com(;|$)/,
    );
    assert.match(csp, /connect-src 'self' https:\/\/api\.stripe\.com(;|$)/);
    assert.match(csp, /frame-ancestors 'none'/);
    assert.match(s.page.body, /<script src="https:\/\/js\.stripe\.com\/v3\/" nonce="/);
    for (const url of [`/checkout/${s.pref.id}`, '/checkout/NoSuchCheckout000000000', `${s.orderUrl}/status`]) {
      const other = await view(ctx, url);
      const strict = String(other.headers['content-security-policy']);
      assert.doesNotMatch(strict, /stripe/, url);
      assert.match(strict, /connect-src 'self';/, url);
    }
  });

  test('the return page asks Stripe, never the query: a succeeded intent closes the order once and shows it paid', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    // What the address bar says counts for nothing: the intent has not succeeded.
    const lying = await view(ctx, `${s.returnUrl}?payment_intent=${s.intentId}&redirect_status=succeeded`);
    assert.equal(lying.statusCode, 303);
    assert.equal(lying.headers.location, s.orderUrl);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'OPENED');

    standIn.succeed(s.intentId);
    const returned = await view(
      ctx,
      `${s.returnUrl}?payment_intent=${s.intentId}&payment_intent_client_secret=x&redirect_status=succeeded`,
    );
    assert.equal(returned.statusCode, 303, 'the client secret Stripe put in the address leaves it');
    assert.equal(returned.headers.location, s.orderUrl);
    const back = await view(ctx, s.orderUrl);
    assert.equal(back.statusCode, 200, back.body);
    assert.match(back.body, /data-test="result-paid"/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'CLOSED');
    assert.ok(
      standIn.requests.some((r) => r.operation === 'GET /v1/payment_intents/{intent}' && r.path.endsWith(s.intentId)),
    );
    // Stripe's event arriving after: no second close.
    const event = standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.paymentIntents.get(s.intentId) ?? {});
    const res = await ctx.app.inject({
      method: 'POST',
      url: new URL(s.view.webhookUrl).pathname,
      headers: event.headers,
      payload: event.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(await closedEvents(ctx, s.orderId), 1);
    const again = await browse(ctx, s.returnUrl);
    assert.match(again.body, /data-test="result-paid"/);
  });

  test('a checkout with a success URL sends the payer there from the return page once paid', async (t) => {
    const ctx = await buildWith(t);
    await connect(ctx, ctx.merchant);
    const { pref, session } = await openCheckout(ctx, ctx.merchant, {
      custom_urls: { success_payment_redirect: 'https://shop.example/thanks' },
    });
    const orderUrl = await chooseCard(ctx, pref.id, session);
    const intentId = stripeData((await view(ctx, orderUrl)).body).intent ?? '';
    standIn.succeed(intentId);
    const back = await browse(ctx, `${orderUrl}/card/return`);
    assert.equal(back.statusCode, 303);
    assert.match(String(back.headers.location), /^https:\/\/shop\.example\/thanks/);
  });

  test('processing: the page refreshes itself; a declined try: the card step again with the decline in the payer’s language; 3-D Secure asked: the card step says so', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);

    standIn.process(s.intentId);
    const processing = await view(ctx, s.returnUrl);
    assert.equal(processing.statusCode, 303);
    const waiting = await view(ctx, s.orderUrl);
    assert.match(waiting.body, /data-test="stripe-card-processing"/);
    // (`=` written as its character reference, as every attribute value is: the browser reads it back.)
    assert.match(waiting.body, new RegExp(`<meta http-equiv="refresh" content="3; url(=|&#61;)${s.orderUrl}">`));
    assert.doesNotMatch(String(waiting.headers['content-security-policy']), /stripe/);

    standIn.decline(s.intentId);
    assert.equal((await view(ctx, s.returnUrl)).statusCode, 303);
    const declined = await view(ctx, s.orderUrl, { 'accept-language': 'es' });
    assert.equal(stripeData(declined.body).intent, s.intentId, 'the same intent: the payer tries again');
    assert.equal(stripeData(declined.body).locale, 'es');
    assert.match(declined.body, /data-test="stripe-card-error">/);
    assert.ok(declined.body.includes(es.failure.insufficient_funds));
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'OPENED');

    standIn.requireAction(s.intentId);
    const action = await view(ctx, s.orderUrl, { 'accept-language': 'pt-BR' });
    assert.equal(stripeData(action.body).locale, 'pt-BR');
    assert.ok(action.body.includes(messagesFor('pt').hostedCard.payerAction));

    standIn.succeed(s.intentId);
    assert.match((await browse(ctx, s.returnUrl)).body, /data-test="result-paid"/);
    assert.equal(intentsOf(s.account.id).length, 1);
  });

  test('an intent canceled at Stripe rejects the order; the payer can start again with a new order and intent', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    const intent = standIn.paymentIntents.get(s.intentId);
    assert.ok(intent);
    intent.status = 'canceled';
    const back = await browse(ctx, s.returnUrl);
    assert.equal(back.statusCode, 200);
    assert.match(back.body, /data-test="result-failed"/);
    assert.match(back.body, /data-test="try-again"/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'REJECTED');

    const next = await chooseCard(ctx, s.pref.id, s.session);
    assert.notEqual(next, s.orderUrl);
    assert.notEqual(stripeData((await view(ctx, next)).body).intent, s.intentId);
  });

  test('a success for another amount never closes the order: the payer is told to ask the merchant, the connection says why', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    standIn.succeed(s.intentId, 100);
    const back = await view(ctx, s.returnUrl);
    assert.equal(back.statusCode, 303);
    const page = await view(ctx, s.orderUrl);
    assert.match(page.body, /data-test="stripe-card-problem"/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'OPENED');
    await ctx.cobro.services.connectors.cards.sync();
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'OPENED');
    const [conn] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.match(conn?.lastError ?? '', /received 100 USD \(minor units\), but order .* charges 2500 USD/);
  });

  test('Stripe unreachable: the payer gets a clear message in their language and nothing closes; the retry makes the order’s one intent', async (t) => {
    const ctx = await buildWith(t);
    const connection = await connect(ctx, ctx.merchant);
    const { pref, session } = await openCheckout(ctx, ctx.merchant);
    const orderUrl = await chooseCard(ctx, pref.id, session);
    // Every try of the first page load (the client's two retries included) finds Stripe unreachable.
    standIn.drop(/^\/v1\/payment_intents$/, 3);
    const down = await view(ctx, orderUrl, { 'accept-language': 'es' });
    assert.equal(down.statusCode, 503, down.body);
    assert.match(down.body, /data-test="stripe-card-unavailable"/);
    assert.ok(down.body.includes(es.hostedCard.unavailable));
    const orderId = /\/orders\/([A-Za-z0-9]+)$/.exec(orderUrl)?.[1] ?? '';
    assert.equal((await getOrder(ctx.app, ctx.merchant, orderId)).status, 'OPENED');

    assert.equal(intentsOf(connection.account.id).length, 0);
    // The built-in processor's recovery of cut card charges leaves this order alone (it is Stripe's).
    await advanceClock(ctx.app, ctx.merchant, 120);
    await ctx.cobro.runJobs();
    assert.equal((await getOrder(ctx.app, ctx.merchant, orderId)).status, 'OPENED');
    // Stripe answers again: the order's own key, one intent.
    const backUp = await ctx.app.inject({ method: 'GET', url: orderUrl });
    assert.equal(backUp.statusCode, 200, backUp.body);
    assert.equal(intentsOf(connection.account.id).length, 1);
    assert.equal(stripeData(backUp.body).intent, intentsOf(connection.account.id)[0]?.id);
  });

  test('the settle job closes an order whose event was lost, and cancels the intents of orders that expired or were superseded', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    standIn.succeed(s.intentId);
    // No event, and the payer never came back: the job asks Stripe.
    await ctx.cobro.services.connectors.cards.sync();
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'CLOSED');

    // Superseded: the payer posts other details, a new order; the old intent is canceled at once.
    const other = await openCheckout(ctx, ctx.merchant);
    const first = await chooseCard(ctx, other.pref.id, other.session);
    const firstIntent = stripeData((await view(ctx, first)).body).intent ?? '';
    const second = await chooseCard(ctx, other.pref.id, other.session, { email: 'ana.lima@example.com' });
    assert.notEqual(second, first);
    assert.equal(standIn.paymentIntents.get(firstIntent)?.status, 'canceled');
    assert.equal(standIn.paymentIntents.get(firstIntent)?.cancellation_reason, 'abandoned');

    // Expired while open (the helper, as the expiry job would): the job cancels its intent.
    const secondIntent = stripeData((await view(ctx, second)).body).intent ?? '';
    const secondId = /\/orders\/([A-Za-z0-9]+)$/.exec(second)?.[1] ?? '';
    const expired = await ctx.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${secondId}/expire`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(expired.statusCode, 200, expired.body);
    await ctx.cobro.services.connectors.cards.sync();
    assert.equal(standIn.paymentIntents.get(secondIntent)?.status, 'canceled');
    // A page of the dead order left open cannot pay it: the stand-in, as Stripe, refuses to confirm it.
    assert.equal((await getOrder(ctx.app, ctx.merchant, secondId)).status, 'EXPIRED');
  });

  test('an order that expired while its intent was being paid is recorded as paid late, never lost', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    const expired = await ctx.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${s.orderId}/expire`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(expired.statusCode, 200, expired.body);
    standIn.succeed(s.intentId);
    await ctx.cobro.services.connectors.cards.sync();
    const order = await getOrder(ctx.app, ctx.merchant, s.orderId);
    assert.equal(order.status, 'EXPIRED');
    assert.equal(order.anomaly, 'PAID_LATE');
    assert.equal(standIn.paymentIntents.get(s.intentId)?.status, 'succeeded', 'a paid intent is never canceled');
  });

  test('failed tries reported by Stripe count against the decline limit: past it the intent is canceled and the checkout refuses more', async (t) => {
    const ctx = await buildWith(t);
    const s = await cardStep(ctx);
    const url = new URL(s.view.webhookUrl).pathname;
    for (let i = 0; i < 5; i++) {
      const event = standIn.event(s.endpoint, 'payment_intent.payment_failed', standIn.decline(s.intentId));
      const res = await ctx.app.inject({ method: 'POST', url, headers: event.headers, payload: event.payload });
      assert.equal(res.statusCode, 200, res.body);
    }
    const page = await view(ctx, s.orderUrl);
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /data-test="result-failed"/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.orderId)).status, 'REJECTED');
    assert.equal(standIn.paymentIntents.get(s.intentId)?.status, 'canceled');
    const refused = await postForm(ctx.app, `/checkout/${s.pref.id}`, s.session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
    });
    assert.equal(refused.statusCode, 409);
    assert.ok(refused.body.includes(en.errors.locked));
  });

  test('live mode offers Card only to a merchant with a live Stripe connection, and its checkout pays through it', async (t) => {
    const ctx = await buildWith(t);
    // Bank details let a live merchant make a checkout at all; Card is what is looked at.
    const live = await ctx.createMerchant('live', { bank: BANK_DETAILS });
    const cardStatus = async () => {
      const res = await get(ctx.app, live, '/v1/payment_methods');
      assert.equal(res.statusCode, 200, res.body);
      return (res.json().payment_methods as { id: string; status: string }[]).find((m) => m.id === USD_CARD_ID)?.status;
    };
    assert.equal(await cardStatus(), 'DISABLED');
    // A test connection is not a live one.
    await connect(ctx, live, false);
    assert.equal(await cardStatus(), 'DISABLED');
    await ctx.cobro.services.connectors.removal.remove(live.id, 'stripe', 'test', CLI_ACTOR);
    const s = await cardStep(ctx, { merchant: live, live: true });
    assert.equal(await cardStatus(), 'ENABLED');
    assert.match(s.data['publishable-key'] ?? '', /^pk_live_/);
    standIn.succeed(s.intentId);
    assert.match((await browse(ctx, s.returnUrl)).body, /data-test="result-paid"/);
    assert.equal((await getOrder(ctx.app, live, s.orderId)).status, 'CLOSED');
  });

  test('a live subscription checkout with a live Stripe connection: Card in Stripe’s fields keeps the card at Stripe, and the first renewal charges it off-session', async (t) => {
    const ctx = await buildWith(t);
    const live = await ctx.createMerchant('live', {
      pix: { key: 'ana@example.com', merchant_name: 'Ana Lima', city: 'Sao Paulo' },
    });
    const { account } = await connect(ctx, live, true);
    const link = await createPaymentLink(ctx.app, live, {
      title: 'Revista Mensal',
      amount: 30,
      currency: 'BRL',
      interval_type: 'MONTH',
      interval_count: 6,
    });
    const pref = await createPreference(ctx.app, live, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD', 'PIX'],
    });
    const page = await view(ctx, `/checkout/${pref.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, new RegExp(`value="${BRL_CARD_ID}"`));
    // Plain form posts up to the card step; card fields posted anyway are dropped unread.
    const posted = await postForm(
      ctx.app,
      `/checkout/${pref.id}`,
      { cookie: cookieFrom(page) ?? '', token: tokenFrom(page.body) },
      { ...PAYER, payment_method_id: BRL_CARD_ID, ...CARD_FIELDS },
    );
    assert.equal(posted.statusCode, 303, posted.body);
    const orderUrl = String(posted.headers.location);
    const step = await view(ctx, orderUrl);
    assert.equal(step.statusCode, 200, step.body);
    const data = stripeData(step.body);
    assert.match(data['publishable-key'] ?? '', /^pk_live_/);
    const intent = standIn.paymentIntents.get(data.intent ?? '');
    assert.ok(intent, 'the card step names the intent Cobro created');
    // The first payment keeps the card for the renewals: a customer of this subscriber, off-session use.
    assert.equal(intent.setup_future_usage, 'off_session');
    const customer = standIn.customers.get(String(intent.customer));
    assert.equal(customer?.account, account.id);
    assert.equal(customer?.email, PAYER.email);
    assert.ok(
      !JSON.stringify(standIn.requests).includes(CARD_FIELDS.card_number),
      'no card number reached Stripe from Cobro',
    );

    standIn.succeed(intent.id);
    assert.match((await browse(ctx, `${orderUrl}/card/return`)).body, /data-test="result-paid"/);
    const orderId = /\/orders\/([A-Za-z0-9]+)$/.exec(orderUrl)?.[1] ?? '';
    const first = await getOrder(ctx.app, live, orderId);
    assert.equal(first.status, 'CLOSED');
    const recId = String(first.recurrent_payment_id);
    const rec = await ctx.cobro.database.uow.read.recurrentPayments.getById(recId);
    assert.equal(rec?.status, 'ACTIVE');
    assert.match(String(rec?.cardToken), new RegExp(`^stripe:${intent.customer}:pm_`));

    // A month later the billing run charges the kept card without the payer.
    await billDue(ctx, recId, live);
    const renewal = (await ordersOf(ctx, recId, live)).find((o) => o.id !== orderId);
    assert.equal(renewal?.status, 'CLOSED');
    const offSession = standIn.requests.filter((r) => r.idempotencyKey?.startsWith(`cobro-pi-renew-${recId}-`));
    assert.equal(offSession.length, 1);
    assert.equal(offSession[0]?.params.customer, intent.customer);
  });

  test('a card subscription starting with a free trial and no sign-up fee cannot be paid through Stripe yet: Card is not offered, a posted card is refused, nothing kept', async (t) => {
    const ctx = await buildWith(t);
    await connect(ctx, ctx.merchant);
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Revista Mensal',
      amount: 30,
      currency: 'USD',
      interval_type: 'MONTH',
      interval_count: 1,
      trial_interval_type: 'MONTH',
      trial_interval_count: 1,
    });
    const pref = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD', 'BANK_TRANSFER'],
    });
    const page = await view(ctx, `/checkout/${pref.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, new RegExp(`value="${USD_BANK_TRANSFER_ID}"`));
    assert.doesNotMatch(page.body, new RegExp(`value="${USD_CARD_ID}"`));
    const asked = standIn.requests.length;
    const posted = await postForm(
      ctx.app,
      `/checkout/${pref.id}`,
      { cookie: cookieFrom(page) ?? '', token: tokenFrom(page.body) },
      { ...PAYER, payment_method_id: USD_CARD_ID },
    );
    assert.equal(posted.statusCode, 400, posted.body);
    assert.equal(standIn.requests.length, asked, 'nothing asked of Stripe');
    const kept = await sql<{
      n: bigint;
    }>`select count(*) as n from payment_orders where checkout_preference_id = ${pref.id}`.execute(
      ctx.cobro.database.db,
    );
    assert.equal(Number(kept.rows[0]?.n ?? 0), 0);
  });

  test('test mode without Stripe test keys keeps the built-in test processor; with them the pay helper refuses cards and says why', async (t) => {
    const ctx = await buildWith(t);
    const asked = standIn.requests.length;
    // Without a connection: the card fields are ours and the test card pays at once, as before.
    const { pref, session } = await openCheckout(ctx, ctx.merchant, { payment_method_types: ['CARD'] });
    const paid = await postForm(ctx.app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      ...CARD_FIELDS,
    });
    assert.equal(paid.statusCode, 303, paid.body);
    assert.match(String(paid.headers.location), /\/orders\//);
    assert.equal(standIn.requests.length, asked, 'Stripe was never asked');

    await connect(ctx, ctx.merchant);
    const second = await createPreference(ctx.app, ctx.merchant, {
      amount: 25,
      currency: 'USD',
      payment_method_types: ['CARD', 'BANK_TRANSFER'],
    });
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/checkout_preferences/${second.id}/pay`,
      headers: ctx.merchant.authHeaders,
      payload: { payment_method_id: USD_CARD_ID },
    });
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.json().messages[0], /Stripe test account/);
    // Other methods are paid by the helper as before.
    const bank = await ctx.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/checkout_preferences/${second.id}/pay`,
      headers: ctx.merchant.authHeaders,
      payload: { payment_method_id: USD_BANK_TRANSFER_ID },
    });
    assert.equal(bank.statusCode, 201, bank.body);
  });
});
