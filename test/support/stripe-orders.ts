import assert from 'node:assert/strict';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import type { PaymentOrder } from '../../src/domain/payment-orders/payment-order.ts';
import { newId } from '../../src/domain/shared/ids.ts';
import { createPreference } from './builders.ts';
import { getOrder } from './payments.ts';
import type { StripeStandIn } from './stripe-stand-in.ts';
import type { TestApp, TestMerchant } from './test-app.ts';

/**
 * A merchant (the test merchant unless given) connects a (stand-in) Stripe account, test keys
 * unless `live`, as `cobro connect stripe` does; Cobro creates its webhook endpoint there.
 */
export async function connectStripe(
  ctx: TestApp,
  standIn: StripeStandIn,
  merchant: TestMerchant = ctx.merchant,
  live = false,
) {
  const account = standIn.addAccount({ live });
  const view = await ctx.cobro.services.connectors.connecting.connect(
    merchant.id,
    'stripe',
    { secretKey: account.secretKey, publishableKey: account.publishableKey },
    CLI_ACTOR,
  );
  const endpoint = standIn.webhookEndpoints.get(view.webhookEndpointId ?? '');
  assert.ok(endpoint);
  return { account, view, endpoint };
}

type Connected = Awaited<ReturnType<typeof connectStripe>>;

/**
 * A connected merchant with an open card order whose PaymentIntent Cobro created, as the card
 * step of the checkout leaves it: the merchant connects its (stand-in) Stripe account (unless
 * `connected` already did), the order is written as the checkout writes it (OPENED, CARD), then
 * the connector creates its intent. `post` sends an event to the connection's webhook URL.
 */
export async function openConnectedCardOrder(ctx: TestApp, standIn: StripeStandIn, amount = 25, connected?: Connected) {
  const { connectors, paymentMethods } = ctx.cobro.services;
  const { account, view, endpoint } = connected ?? (await connectStripe(ctx, standIn));
  const pref = await createPreference(ctx.app, ctx.merchant, {
    amount,
    currency: 'USD',
    payment_method_types: ['CARD'],
  });
  const method = (await paymentMethods.all()).find((m) => m.type === 'CARD' && m.currency === 'USD');
  assert.ok(method);
  const now = ctx.clock.now().getTime();
  const order: PaymentOrder = {
    id: newId(),
    merchantId: ctx.merchant.id,
    mode: 'test',
    checkoutPreferenceId: pref.id,
    recurrentPaymentId: null,
    amountMinor: BigInt(amount * 100),
    currency: 'USD',
    chargedAmountMinor: BigInt(amount * 100),
    chargedCurrency: 'USD',
    receivedAmountMinor: null,
    status: 'OPENED',
    anomaly: 'NONE',
    title: 'Tea for two',
    origin: 'API',
    externalId: null,
    paymentMethodId: method.id,
    paymentMethodType: 'CARD',
    payer: { email: 'ana@example.com', firstName: 'Ana', lastName: 'Souza', phoneNumber: null },
    instructions: null,
    providerRef: null,
    failureCode: null,
    failureMessage: null,
    sequence: 1,
    expiresAt: now + 15 * 60_000,
    createdAt: now,
    updatedAt: now,
    expiredAt: null,
    closedAt: null,
    refundedAt: null,
    periodIndex: null,
    periodAttempt: null,
    chainProgress: null,
  };
  await ctx.cobro.database.uow.transaction(async (repos) => {
    await repos.orders.insert(order);
    await repos.preferences.setLatestOrder(pref.id, order.id, now);
  });
  const intent = await connectors.intents.intentFor(order);
  const again = await connectors.intents.intentFor({ ...order, providerRef: intent.id });
  assert.equal(again.id, intent.id, 'one intent per order');
  const path = new URL(view.webhookUrl).pathname;
  const post = (event: { payload: string; headers: Record<string, string> }) =>
    ctx.app.inject({ method: 'POST', url: path, headers: event.headers, payload: event.payload });
  return { account, view, endpoint, pref, order, intent, path, post };
}

/** The same, paid: the payer's card was charged at the stand-in and its verified payment_intent.succeeded closed the order. */
export async function paidConnectedCardOrder(ctx: TestApp, standIn: StripeStandIn, amount = 25, connected?: Connected) {
  const opened = await openConnectedCardOrder(ctx, standIn, amount, connected);
  const res = await opened.post(
    standIn.event(opened.endpoint, 'payment_intent.succeeded', standIn.succeed(opened.intent.id)),
  );
  assert.equal(res.statusCode, 200, res.body);
  assert.equal((await getOrder(ctx.app, ctx.merchant, opened.order.id)).status, 'CLOSED');
  return opened;
}
