import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import type { PaymentOrder } from '../../src/domain/payment-orders/payment-order.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { createPaymentLink, createPreference } from './builders.ts';
import { getOrder, pay } from './payments.ts';
import type { StripeStandIn } from './stripe-stand-in.ts';
import type { TestApp } from './test-app.ts';

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

export async function subscriptionOf(ctx: TestApp, recId: string) {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${recId}`, headers: ctx.merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as { status: string; periods_paid: number; next_payment_date: string | null };
}

/** The subscription's payment orders, newest first. */
export async function ordersOf(ctx: TestApp, recId: string): Promise<OrderRow[]> {
  const res = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${recId}`,
    headers: ctx.merchant.authHeaders,
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
export async function billDue(ctx: TestApp, recId: string): Promise<void> {
  const due = (await subscriptionOf(ctx, recId)).next_payment_date;
  assert.ok(due, 'the subscription has a next payment date');
  const ahead = Date.parse(due) - ctx.clock.now().getTime();
  if (ahead > 0) {
    ctx.clock.advance(ahead);
  }
  await ctx.cobro.billing.runBilling();
}

/**
 * Ana subscribes to "Club del Té", 12 USD a month for six months, paying by card through the
 * merchant's connected Stripe account (its card fields are Stripe's); the first payment's intent
 * is made, not yet paid.
 */
export async function subscribeByCard(ctx: TestApp, standIn: StripeStandIn): Promise<Subscribed> {
  const { connecting, intents } = ctx.cobro.services.connectors;
  const account = standIn.addAccount();
  const view = await connecting.connect(
    ctx.merchant.id,
    'stripe',
    { secretKey: account.secretKey, publishableKey: account.publishableKey },
    CLI_ACTOR,
  );
  const endpoint = standIn.webhookEndpoints.get(view.webhookEndpointId ?? '');
  assert.ok(endpoint);
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
  // A first try declined by the built-in processor makes the subscription (INCOMPLETE).
  const declined = await pay(ctx.app, ctx.merchant, pref.id, {
    outcome: 'REJECTED',
    payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza' },
  });
  assert.equal(declined.statusCode, 201, declined.body);
  const recId = String(declined.json().recurrent_payment_id);
  const rejected = await ctx.cobro.database.uow.read.orders.getById(declined.json().id);
  assert.ok(rejected);
  // The checkout's Stripe card step opens the next try without card data, as it will for a
  // connected merchant; here the order is opened as that step opens it.
  const now = ctx.clock.now().getTime();
  const first: PaymentOrder = {
    ...rejected,
    id: newId(),
    status: 'OPENED',
    instructions: null,
    providerRef: null,
    failureCode: null,
    failureMessage: null,
    sequence: 1,
    expiresAt: now + 15 * 60_000,
    createdAt: now,
    updatedAt: now,
    closedAt: null,
  };
  await ctx.cobro.database.uow.transaction(async (repos) => {
    await repos.orders.insert(first);
    await repos.preferences.setLatestOrder(pref.id, first.id, now);
  });
  const intent = await intents.intentFor(first);
  const customerId = String(standIn.paymentIntents.get(intent.id)?.customer);
  const path = new URL(view.webhookUrl).pathname;
  const post = (event: { payload: string; headers: Record<string, string> }) =>
    ctx.app.inject({ method: 'POST', url: path, headers: event.headers, payload: event.payload });
  return { recId, accountId: account.id, customerId, first, intentId: intent.id, endpoint, post };
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
