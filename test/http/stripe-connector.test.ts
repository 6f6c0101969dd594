import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { beforeEach, describe, test } from 'node:test';
import Stripe from 'stripe';
import { ConnectorError } from '../../src/domain/connectors/card-connector.ts';
import { STRIPE_API_VERSION, stripeClient } from '../../src/providers/card/stripe/stripe.client.ts';
import { StripeConnector } from '../../src/providers/card/stripe/stripe.connector.ts';
import type { StripeStandIn } from '../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';

const DECIMALS: Record<string, number> = { USD: 2, BRL: 2, CLP: 0, MXN: 2 };
const decimalsOf = (code: string) => {
  const d = DECIMALS[code];
  if (d === undefined) {
    throw new RangeError(`currency ${code} is not in the currency table`);
  }
  return d;
};

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
const connector = (options: { timeoutMs?: number; maxNetworkRetries?: number } = {}) =>
  new StripeConnector(
    { apiUrl: standIn.url, timeoutMs: options.timeoutMs ?? 5_000, maxNetworkRetries: options.maxNetworkRetries ?? 1 },
    decimalsOf,
  );
const intentInput = (orderId: string, amountMinor = 2_500n, currency = 'USD') => ({
  orderId,
  preferenceId: `pref_${orderId}`,
  amount: { amountMinor, currency },
  description: 'Camiseta',
  saveCardFor: null,
});

describe('Stripe connector against the Stripe stand-in (requests checked against Stripe’s published OpenAPI description)', () => {
  beforeEach(() => {
    standIn = standIns();
  });

  test('the API version Cobro asks for is the version of the vendored description', () => {
    const spec = JSON.parse(
      readFileSync(new URL('../../vendor/stripe-openapi/spec3.trimmed.json', import.meta.url), 'utf8'),
    );
    assert.equal(STRIPE_API_VERSION, spec.info.version);
    assert.match(spec.info['x-vendored-from'].commit, /^[0-9a-f]{40}$/);
    assert.match(spec.info['x-vendored-from'].license, /MIT/);
  });

  test('the stand-in refuses what Stripe would refuse: an unknown parameter is a 400 and a recorded violation', async () => {
    const account = standIn.addAccount();
    const client = stripeClient(account.secretKey, { apiUrl: standIn.url, timeoutMs: 5_000, maxNetworkRetries: 0 });
    await assert.rejects(
      client.paymentIntents.create({
        amount: 100,
        currency: 'usd',
        no_such_parameter: 'x',
      } as Stripe.PaymentIntentCreateParams),
      (error: Error) =>
        error instanceof Stripe.errors.StripeInvalidRequestError && /unknown parameter/.test(error.message),
    );
    await assert.rejects(
      client.paymentIntents.create({ amount: 'ten' as unknown as number, currency: 'usd' }),
      Stripe.errors.StripeInvalidRequestError,
    );
    assert.equal(standIn.violations.length, 2);
    assert.match(standIn.violations[0] ?? '', /POST \/v1\/payment_intents: unknown parameter \/no_such_parameter/);
    standIn.violations.length = 0;
  });

  test('the account check reads the account; a key Stripe refuses is an AUTH failure whose message holds no key', async () => {
    const account = standIn.addAccount({ name: 'Tienda Ana' });
    assert.deepEqual(await connector().account(account.secretKey), { id: account.id, name: 'Tienda Ana' });
    const wrong = `sk_test_${'9'.repeat(24)}`;
    await assert.rejects(connector().account(wrong), (error: Error) => {
      assert.ok(error instanceof ConnectorError);
      assert.equal(error.kind, 'AUTH');
      assert.doesNotMatch(error.message, /sk_test_|9{8}/);
      return true;
    });
  });

  test('the webhook endpoint is created at the given URL with the card events and pinned API version; deleting it twice is fine', async () => {
    const account = standIn.addAccount();
    const url = 'https://cobro.example/connectors/stripe/webhooks/abc123';
    const endpoint = await connector().createWebhookEndpoint(account.secretKey, {
      url,
      idempotencyKey: 'cobro-we-conn1',
      merchantId: 'm_1',
    });
    assert.match(endpoint.secret, /^whsec_/);
    const stored = standIn.webhookEndpoints.get(endpoint.id);
    assert.equal(stored?.url, url);
    assert.equal(stored?.api_version, STRIPE_API_VERSION);
    for (const type of [
      'payment_intent.succeeded',
      'payment_intent.payment_failed',
      'payment_intent.canceled',
      'charge.refunded',
    ]) {
      assert.ok((stored?.enabled_events as string[] | undefined)?.includes(type), type);
    }
    await connector().deleteWebhookEndpoint(account.secretKey, endpoint.id);
    assert.equal(standIn.webhookEndpoints.has(endpoint.id), false);
    await connector().deleteWebhookEndpoint(account.secretKey, endpoint.id);
  });

  test('one PaymentIntent per order: creating it twice returns the same intent (Idempotency-Key fixed by the order)', async () => {
    const account = standIn.addAccount();
    const before = standIn.paymentIntents.size;
    const first = await connector().createIntent(account.secretKey, intentInput('ord_twice'));
    const second = await connector().createIntent(account.secretKey, intentInput('ord_twice'));
    assert.equal(second.id, first.id);
    assert.equal(standIn.paymentIntents.size, before + 1);
    const sent = standIn.requests.filter(
      (r) => r.operation === 'POST /v1/payment_intents' && r.idempotencyKey === 'cobro-pi-ord_twice',
    );
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[0]?.params, {
      amount: 2500,
      currency: 'usd',
      payment_method_types: ['card'],
      description: 'Camiseta',
      metadata: { cobro_payment_order_id: 'ord_twice', cobro_checkout_preference_id: 'pref_ord_twice' },
    });
    assert.equal(first.outcome, 'FAILED_TRY');
    assert.deepEqual(first.amount, { amountMinor: 2_500n, currency: 'USD' });
    assert.match(first.clientSecret ?? '', /^pi_.+_secret_/);
  });

  test('a zero-decimal currency is sent in whole units: 15 990 CLP is amount=15990', async () => {
    const account = standIn.addAccount();
    const intent = await connector().createIntent(account.secretKey, intentInput('ord_clp', 15_990n, 'CLP'));
    assert.equal(standIn.paymentIntents.get(intent.id)?.amount, 15_990);
    assert.equal(standIn.paymentIntents.get(intent.id)?.currency, 'clp');
    assert.deepEqual(intent.amount, { amountMinor: 15_990n, currency: 'CLP' });
  });

  test("a subscription's first payment saves the card: a customer per subscriber, setup_future_usage=off_session", async () => {
    const account = standIn.addAccount();
    const customer = await connector().createCustomer(account.secretKey, {
      subscriptionId: 'sub_1',
      email: 'ana@example.com',
      name: 'Ana Souza',
    });
    const again = await connector().createCustomer(account.secretKey, {
      subscriptionId: 'sub_1',
      email: 'ana@example.com',
      name: 'Ana Souza',
    });
    assert.equal(again.id, customer.id);
    const intent = await connector().createIntent(account.secretKey, {
      ...intentInput('ord_sub'),
      saveCardFor: { customerId: customer.id },
    });
    const stored = standIn.paymentIntents.get(intent.id);
    assert.equal(stored?.customer, customer.id);
    assert.equal(stored?.setup_future_usage, 'off_session');
  });

  test('an answer lost to a timeout is retried with the same key: still one intent', async () => {
    const account = standIn.addAccount();
    const before = standIn.paymentIntents.size;
    standIn.hang(/^\/v1\/payment_intents$/);
    const intent = await connector({ timeoutMs: 400, maxNetworkRetries: 2 }).createIntent(
      account.secretKey,
      intentInput('ord_lost_answer'),
    );
    assert.equal(standIn.paymentIntents.size, before + 1);
    assert.ok(standIn.paymentIntents.has(intent.id));
    const tries = standIn.requests.filter((r) => r.idempotencyKey === 'cobro-pi-ord_lost_answer');
    assert.equal(tries.length, 2, 'the first try (carried out, never answered) and the retry');
  });

  test('a Stripe that does not answer is a clear UNAVAILABLE error within the timeout and its retries', async () => {
    const account = standIn.addAccount();
    standIn.hang(/^\/v1\/account$/, 3);
    const started = Date.now();
    await assert.rejects(
      connector({ timeoutMs: 300, maxNetworkRetries: 1 }).account(account.secretKey),
      (error: Error) => {
        assert.ok(error instanceof ConnectorError);
        assert.equal(error.kind, 'UNAVAILABLE');
        assert.match(error.message, /Stripe could not be reached/);
        return true;
      },
    );
    // Two tries of 300 ms and the package's backoff between them (at most 2 s).
    assert.ok(Date.now() - started < 3_000, `gave up after ${Date.now() - started} ms`);
  });

  test('a 500 is kept under its idempotency key as Stripe keeps it: the retry gets the same 500, no intent is made', async () => {
    const account = standIn.addAccount();
    const before = standIn.paymentIntents.size;
    standIn.fail(/^\/v1\/payment_intents$/, 500);
    await assert.rejects(
      connector({ maxNetworkRetries: 0 }).createIntent(account.secretKey, intentInput('ord_500')),
      (error: Error) => error instanceof ConnectorError && error.kind === 'UNAVAILABLE',
    );
    await assert.rejects(
      connector({ maxNetworkRetries: 0 }).createIntent(account.secretKey, intentInput('ord_500')),
      (error: Error) => error instanceof ConnectorError && error.kind === 'UNAVAILABLE',
    );
    assert.equal(standIn.paymentIntents.size, before);
  });

  test('retrieve says what Stripe says: succeeded settles, with what was received', async () => {
    const account = standIn.addAccount();
    const intent = await connector().createIntent(account.secretKey, intentInput('ord_retrieve'));
    standIn.decline(intent.id);
    const declined = await connector().retrieveIntent(account.secretKey, intent.id);
    assert.equal(declined.outcome, 'FAILED_TRY');
    assert.deepEqual(declined.failure, { code: 'insufficient_funds', message: 'Your card has insufficient funds.' });
    standIn.succeed(intent.id);
    const paid = await connector().retrieveIntent(account.secretKey, intent.id);
    assert.equal(paid.outcome, 'SETTLE');
    assert.deepEqual(paid.received, { amountMinor: 2_500n, currency: 'USD' });
    assert.equal(paid.orderId, 'ord_retrieve');
  });

  test('a refund is refused before the payment succeeded, then made once whatever the retries', async () => {
    const account = standIn.addAccount();
    const intent = await connector().createIntent(account.secretKey, intentInput('ord_refund'));
    await assert.rejects(
      connector().createRefund(account.secretKey, { orderId: 'ord_refund', intentId: intent.id }),
      (error: Error) => error instanceof ConnectorError && error.kind === 'REJECTED',
    );
    standIn.succeed(intent.id);
    // The refused try was not kept under the key (Stripe keeps no result for a request it refused as invalid).
    const refund = await connector().createRefund(account.secretKey, { orderId: 'ord_refund', intentId: intent.id });
    const again = await connector().createRefund(account.secretKey, { orderId: 'ord_refund', intentId: intent.id });
    assert.equal(again.id, refund.id);
    assert.equal(refund.outcome, 'REFUNDED');
    assert.equal(refund.intentId, intent.id);
    assert.equal([...standIn.refunds.values()].filter((r) => r.payment_intent === intent.id).length, 1);
  });

  test('an event verifies only with its endpoint secret, its exact bytes and a fresh timestamp', async () => {
    const account = standIn.addAccount();
    const endpoint = await connector().createWebhookEndpoint(account.secretKey, {
      url: 'https://cobro.example/connectors/stripe/webhooks/ev',
      idempotencyKey: 'cobro-we-ev',
      merchantId: 'm_ev',
    });
    const intent = await connector().createIntent(account.secretKey, intentInput('ord_event'));
    const event = standIn.event(endpoint, 'payment_intent.succeeded', standIn.succeed(intent.id));
    const verified = connector().verifyEvent(
      Buffer.from(event.payload),
      event.headers['stripe-signature'],
      endpoint.secret,
    );
    assert.equal(verified?.id, event.id);
    assert.equal(verified?.intent?.outcome, 'SETTLE');
    assert.equal(verified?.intent?.orderId, 'ord_event');
    assert.equal(verified?.livemode, false);
    const c = connector();
    assert.equal(c.verifyEvent(Buffer.from(event.payload), event.headers['stripe-signature'], 'whsec_other0000'), null);
    assert.equal(
      c.verifyEvent(
        Buffer.from(event.payload.replace('2500', '2501')),
        event.headers['stripe-signature'],
        endpoint.secret,
      ),
      null,
    );
    assert.equal(c.verifyEvent(Buffer.from(event.payload), undefined, endpoint.secret), null);
    const stale = standIn.event(endpoint, 'payment_intent.succeeded', standIn.succeed(intent.id), {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    assert.equal(c.verifyEvent(Buffer.from(stale.payload), stale.headers['stripe-signature'], endpoint.secret), null);
  });
});
