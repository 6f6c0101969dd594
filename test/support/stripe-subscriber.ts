import assert from 'node:assert/strict';
import type { PaymentOrder } from '../../src/domain/payment-orders/payment-order.ts';
import { USD_CARD_ID } from '../http/helpers.ts';
import { createPaymentLink, createPreference } from './builders.ts';
import { cookieFrom, postForm, tokenFrom } from './page-forms.ts';
import { getOrder } from './payments.ts';
import { connectStripe } from './stripe-orders.ts';
import type { StripeStandIn } from './stripe-stand-in.ts';
import type { TestApp, TestMerchant } from './test-app.ts';

/*
 * A card subscriber of a merchant whose Stripe account is connected (test keys), against the
 * Stripe stand-in: what the HTTP and browser tests of card subscriptions through Stripe share.
 */

export type Subscribed = {
  recId: string;
  accountId: string;
  customerId: string;
  first: PaymentOrder;
  intentId: string;
  endpoint: { secret: string };
  post: (event: { payload: string; headers: Record<string, string> }) => Promise<{ statusCode: number; body: string }>;
};

export type OrderRow = { id: string; status: string; failure_code?: string | null };

export async function subscriptionOf(ctx: TestApp, recId: string, merchant: TestMerchant = ctx.merchant) {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${recId}`, headers: merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { status: string; periods_paid: number; next_payment_date: string | null };
}

/** The subscription's payment orders, newest first. */
export async function ordersOf(
  ctx: TestApp,
  recId: string,
  merchant: TestMerchant = ctx.merchant,
): Promise<OrderRow[]> {
  const res = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${recId}`,
    headers: merchant.authHeaders,
  });
  return res.json().data as OrderRow[];
}

/** This subscriber's renewals at the stand-in (shared by a file's tests): the intents Stripe keeps. */
export const offSessionIntents = (standIn: StripeStandIn, s: Subscribed) =>
  [...standIn.paymentIntents.values()].filter(
    (i) => i.account === s.accountId && i.customer === s.customerId && i.setup_future_usage === null,
  );

/** The requests that charged this subscriber's card off-session. */
export const offSessionRequests = (standIn: StripeStandIn, s: Subscribed) =>
  standIn.requests.filter(
    (r) => r.operation === 'POST /v1/payment_intents' && r.params.off_session && r.params.customer === s.customerId,
  );

/** Lets the merchant's test clock reach the subscription's next due date and runs the billing. */
export async function billDue(ctx: TestApp, recId: string, merchant: TestMerchant = ctx.merchant): Promise<void> {
  const due = (await subscriptionOf(ctx, recId, merchant)).next_payment_date;
  assert.ok(due, 'the subscription has a next payment date');
  const ahead = Date.parse(due) - ctx.clock.now().getTime();
  if (ahead > 0) {
    ctx.clock.advance(ahead);
  }
  await ctx.cobro.billing.runBilling();
}

/**
 * Ana subscribes to "Club del Té", 12 USD a month for six months, paying by card through the
 * merchant's connected Stripe account: plain form posts on the hosted checkout up to its card
 * step, whose first payment's intent is made (keeping the card at Stripe), not yet paid.
 */
export async function subscribeByCard(ctx: TestApp, standIn: StripeStandIn): Promise<Subscribed> {
  const { account, view, endpoint } = await connectStripe(ctx, standIn);
  const link = await createPaymentLink(ctx.app, ctx.merchant, {
    title: 'Club del Té',
    amount: 12,
    currency: 'USD',
    interval_type: 'MONTH',
    interval_count: 6,
  });
  const pref = await createPreference(ctx.app, ctx.merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    payment_method_types: ['CARD'],
  });
  const page = await ctx.app.inject({ method: 'GET', url: `/checkout/${pref.id}` });
  assert.equal(page.statusCode, 200, page.body);
  const posted = await postForm(
    ctx.app,
    `/checkout/${pref.id}`,
    { cookie: cookieFrom(page) ?? '', token: tokenFrom(page.body) },
    { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza', payment_method_id: USD_CARD_ID },
  );
  assert.equal(posted.statusCode, 303, posted.body);
  const orderUrl = String(posted.headers.location);
  // The card step makes the first payment's intent and names it to Stripe.js.
  const step = await ctx.app.inject({ method: 'GET', url: orderUrl });
  assert.equal(step.statusCode, 200, step.body);
  const intentId = /data-stripe-intent="([^"]+)"/.exec(step.body)?.[1] ?? '';
  assert.ok(standIn.paymentIntents.has(intentId), 'the card step names the intent Cobro made');
  const first = await ctx.cobro.database.uow.read.orders.getById(/\/orders\/([A-Za-z0-9]+)$/.exec(orderUrl)?.[1] ?? '');
  assert.ok(first?.recurrentPaymentId, 'the first payment belongs to the subscription');
  const customerId = String(standIn.paymentIntents.get(intentId)?.customer);
  const path = new URL(view.webhookUrl).pathname;
  const post = (event: { payload: string; headers: Record<string, string> }) =>
    ctx.app.inject({ method: 'POST', url: path, headers: event.headers, payload: event.payload });
  return { recId: first.recurrentPaymentId, accountId: account.id, customerId, first, intentId, endpoint, post };
}

/** The payer pays the first period in Stripe's fields; Stripe sends the signed event. */
export async function payFirst(ctx: TestApp, standIn: StripeStandIn, s: Subscribed): Promise<void> {
  const res = await s.post(standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.succeed(s.intentId)));
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await getOrder(ctx.app, ctx.merchant, s.first.id)).status, 'CLOSED');
}

/**
 * A renewal whose bank wants the payer: the open order and the path of the link the mail gives
 * (`subject` starts the mail's subject, in the payer's language; `linkLabel` comes before the link).
 */
export async function awaitingPayer(
  ctx: TestApp,
  standIn: StripeStandIn,
  s: Subscribed,
  words: { subject: string; linkLabel: string } = {
    subject: 'Confirm your payment',
    linkLabel: 'Confirm the payment here:',
  },
): Promise<{ order: OrderRow; path: string; mail: { to: string; subject: string; text: string } }> {
  standIn.nextOffSession('authentication_required');
  await billDue(ctx, s.recId);
  const [open] = (await ordersOf(ctx, s.recId)).filter((o) => o.status === 'OPENED');
  assert.ok(open, 'the renewal stays open');
  const mails = await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: ctx.merchant.authHeaders });
  const mail = (mails.json().data as { to: string; subject: string; text: string }[]).find(
    (m) => m.subject.startsWith(words.subject) && m.text.includes(open.id),
  );
  assert.ok(mail, mails.body);
  const at = mail.text.indexOf(words.linkLabel);
  const link = new URL(
    mail.text
      .slice(at + words.linkLabel.length)
      .trim()
      .split(/\s/)[0] ?? 'http://missing/',
  );
  return { order: open, path: `${link.pathname}${link.search}`, mail };
}
