import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { CobroEvent } from '@cobro/sdk';
import { createCobroClient, verifyWebhook, WebhookVerificationError } from '@cobro/sdk';
import Fastify from 'fastify';
import { Value } from 'typebox/value';
import { signatureHeader } from '../../src/domain/webhooks/signing.ts';
import { CobroEventBody } from '../../src/http/schemas/webhook.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { drainWebhooks } from '../support/webhook-receiver.ts';

/**
 * Each use packages/sdk/README.md documents, against a Cobro listening on loopback: create a
 * checkout preference, read it, list payment methods, pay it (test helper), refund the order,
 * and verify the webhook deliveries the server really sends, in a Fastify handler as the README
 * shows.
 */

type Served = TestApp & { baseUrl: string };

async function serve(
  build: (t: TestContext, o?: { env?: Record<string, string> }) => Promise<TestApp>,
  t: TestContext,
) {
  const ctx = await build(t, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = ctx.app.server.address() as AddressInfo;
  return { ...ctx, baseUrl: `http://127.0.0.1:${port}` } satisfies Served;
}

/** The README's Fastify receiver: the raw body kept as a string, verified, then handled. */
async function webhookReceiver(t: TestContext, secret: () => string) {
  const events: CobroEvent[] = [];
  const refused: string[] = [];
  const hooks = Fastify();
  hooks.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  hooks.post('/hooks/cobro', async (req, reply) => {
    let event: CobroEvent;
    try {
      event = verifyWebhook(req.body as string, req.headers, secret());
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        refused.push(error.message);
        return reply.code(400).send('bad signature');
      }
      throw error;
    }
    events.push(event);
    return reply.code(200).send();
  });
  await hooks.listen({ port: 0, host: '127.0.0.1' });
  t.after(() => hooks.close());
  const { port } = hooks.server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hooks/cobro`, events, refused };
}

describeBackends('@cobro/sdk against a running Cobro', (build) => {
  test('creates a preference, reads it, lists payment methods, pays and refunds the order, with typed answers', async (t) => {
    const ctx = await serve(build, t);
    const cobro = createCobroClient({
      baseUrl: ctx.baseUrl,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });

    const methods = await cobro.GET('/v1/payment_methods', { params: { query: { type: 'CARD', currency: 'USD' } } });
    assert.equal(methods.response.status, 200);
    assert.ok(methods.data && methods.data.payment_methods.length > 0, JSON.stringify(methods.error));
    assert.ok(methods.data.payment_methods.every((m) => m.type === 'CARD' && m.currency === 'USD'));

    const created = await cobro.POST('/v1/checkout_preferences', {
      body: {
        type: 'PAYMENT',
        origin: 'API',
        amount: 16.9,
        currency: 'USD',
        title: 'Tea for two',
        external_id: 'order-1001',
        payment_method_types: ['CARD'],
      },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    assert.ok(created.data);
    assert.match(created.data.checkout_url, new RegExp(`/checkout/${created.data.id}$`));
    assert.equal(created.data.amount, 16.9);

    const read = await cobro.GET('/v1/checkout_preferences/{id}', { params: { path: { id: created.data.id } } });
    assert.equal(read.response.status, 200);
    assert.deepEqual(read.data, created.data);

    const paid = await cobro.POST('/v1/test_helpers/checkout_preferences/{id}/pay', {
      params: { path: { id: created.data.id } },
      body: { outcome: 'APPROVED' },
    });
    assert.equal(paid.response.status, 201, JSON.stringify(paid.error));
    assert.equal(paid.data?.status, 'CLOSED');
    const orderId = paid.data.id;

    const refunded = await cobro.POST('/v1/payment_orders/{id}/refunds', {
      params: { path: { id: orderId } },
      body: { reason: 'returned' },
    });
    assert.equal(refunded.response.status, 200, JSON.stringify(refunded.error));
    assert.equal(refunded.data?.status, 'REFUNDED');
    const order = await cobro.GET('/v1/payment_orders/{id}', { params: { path: { id: orderId } } });
    assert.equal(order.data?.status, 'REFUNDED');
    assert.equal(order.data.external_id, 'order-1001');

    // A second refund is a conflict: answered, typed, not thrown.
    const again = await cobro.POST('/v1/payment_orders/{id}/refunds', { params: { path: { id: orderId } }, body: {} });
    assert.equal(again.response.status, 409);
    assert.equal(again.data, undefined);
    assert.equal(again.error?.code, 'CONFLICT');
    assert.ok(again.error.messages.length > 0);
  });

  test('answers HTTP errors as the typed error body, not as exceptions', async (t) => {
    const ctx = await serve(build, t);
    const cobro = createCobroClient({ baseUrl: ctx.baseUrl, apiKey: ctx.merchant.apiKey, apiSecret: 'cs_test_wrong' });
    const denied = await cobro.GET('/v1/payment_methods');
    assert.equal(denied.response.status, 401);
    assert.equal(denied.error?.code, 'UNAUTHORIZED');

    const good = createCobroClient({
      baseUrl: ctx.baseUrl,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const missing = await good.GET('/v1/payment_orders/{id}', { params: { path: { id: 'nosuchorder' } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.error?.code, 'NOT_FOUND');
    const wrong = await good.POST('/v1/checkout_preferences', {
      // A number where the API wants text: what an untyped caller could still send.
      body: { type: 'PAYMENT', origin: 'API', amount: 10, currency: 'USD', title: 42 as unknown as string },
    });
    assert.equal(wrong.response.status, 400);
    assert.equal(wrong.error?.code, 'WRONG_INPUT');
    assert.ok(
      wrong.error.messages.some((m) => m.includes('title')),
      JSON.stringify(wrong.error),
    );
  });

  test("verifies the server's real webhook deliveries in a Fastify handler and rejects forged, altered or stale ones", async (t) => {
    const ctx = await serve(build, t);
    const cobro = createCobroClient({
      baseUrl: ctx.baseUrl,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const settings = await cobro.GET('/v1/webhook_settings');
    const secret = settings.data?.signing_secret ?? '';
    assert.match(secret, /^whsec_/);
    const receiver = await webhookReceiver(t, () => secret);

    const created = await cobro.POST('/v1/checkout_preferences', {
      body: {
        type: 'PAYMENT',
        origin: 'API',
        amount: 25,
        currency: 'USD',
        title: 'Webhooks',
        external_id: 'hook-1',
        payment_method_types: ['CARD'],
        custom_urls: { status_changes_webhook: receiver.url },
      },
    });
    assert.ok(created.data, JSON.stringify(created.error));
    const paid = await cobro.POST('/v1/test_helpers/checkout_preferences/{id}/pay', {
      params: { path: { id: created.data.id } },
      body: { outcome: 'APPROVED' },
    });
    assert.ok(paid.data, JSON.stringify(paid.error));
    await cobro.POST('/v1/payment_orders/{id}/refunds', { params: { path: { id: paid.data.id } }, body: {} });
    await drainWebhooks(ctx.cobro);

    assert.deepEqual(receiver.refused, []);
    assert.deepEqual(receiver.events.map((e) => e.event_type).sort(), [
      'PAYMENT_ORDER.CLOSED',
      'PAYMENT_ORDER.OPENED',
      'PAYMENT_ORDER.REFUNDED',
    ]);
    const logged = await cobro.GET('/v1/events', { params: { query: { entity_id: paid.data.id } } });
    for (const event of receiver.events) {
      // The body is the event as the API lists it, and matches the CobroEvent schema it is typed from.
      assert.deepEqual(event, logged.data?.data.find((e) => e.id === event.id)?.data);
      assert.ok(Value.Check(CobroEventBody, event), JSON.stringify([...Value.Errors(CobroEventBody, event)]));
      if (event.event_type === 'PAYMENT_ORDER.CLOSED') {
        // Narrowed by event type: the order's status, and its id under its own name.
        const status: 'CLOSED' = event.status;
        assert.equal(status, 'CLOSED');
        assert.equal(event.payment_order_id, paid.data.id);
        assert.equal(event.external_id, 'hook-1');
      }
    }

    // A subscription's events are described as well: every event of the merchant matches the schema.
    const plan = await cobro.POST('/v1/payment_links', {
      body: { title: 'Gold', amount: 9.99, currency: 'USD', interval_type: 'MONTH', interval_count: 12 },
    });
    assert.ok(plan.data, JSON.stringify(plan.error));
    const subscription = await cobro.POST('/v1/checkout_preferences', {
      body: { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: plan.data.id, payment_method_types: ['CARD'] },
    });
    assert.ok(subscription.data, JSON.stringify(subscription.error));
    const first = await cobro.POST('/v1/test_helpers/checkout_preferences/{id}/pay', {
      params: { path: { id: subscription.data.id } },
      body: { outcome: 'APPROVED' },
    });
    assert.ok(first.data?.recurrent_payment_id, JSON.stringify(first.error));
    const all = await cobro.GET('/v1/events', { params: { query: { limit: '100' } } });
    const types = new Set(all.data?.data.map((e) => e.event_type));
    assert.ok(types.has('RECURRENT_PAYMENT.ACTIVE'), [...types].join());
    for (const listed of all.data?.data ?? []) {
      assert.ok(
        Value.Check(CobroEventBody, listed.data),
        JSON.stringify([...Value.Errors(CobroEventBody, listed.data)]),
      );
      assert.equal(listed.data.event_type, listed.event_type);
    }
  });
});

test('verifyWebhook takes the raw body as text or bytes and the headers as Node gives them or as a Headers', () => {
  const secret = `whsec_${Buffer.from('a 32-byte signing secret, 32 by.').toString('base64')}`;
  const body = JSON.stringify({
    id: 'evt_1',
    event_type: 'RECURRENT_PAYMENT.ACTIVE',
    entity_type: 'RECURRENT_PAYMENT',
    entity_id: 'rp_1',
    recurrent_payment_id: 'rp_1',
    checkout_preference_id: 'cp_1',
    payment_link_id: 'pl_1',
    external_id: null,
    status: 'ACTIVE',
    sequence: 2,
    created_at: '2026-01-01T00:00:00Z',
  });
  const now = Math.floor(Date.now() / 1000);
  const signed = (timestamp: number, payload = body, secrets = [secret]) => ({
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(secrets, 'evt_1', timestamp, payload),
  });

  const event = verifyWebhook(body, signed(now), secret);
  assert.equal(event.event_type, 'RECURRENT_PAYMENT.ACTIVE');
  assert.deepEqual(verifyWebhook(Buffer.from(body), signed(now), secret), event);
  assert.deepEqual(verifyWebhook(new TextEncoder().encode(body), new Headers(signed(now)), secret), event);
  // Node's req.headers keeps names lower-case; any case is read.
  const upper = Object.fromEntries(Object.entries(signed(now)).map(([k, v]) => [k.toUpperCase(), v]));
  assert.deepEqual(verifyWebhook(body, upper, secret), event);
  // During a secret rotation the header carries two signatures; either one verifies.
  const other = `whsec_${Buffer.from('another secret of thirty-two by.').toString('base64')}`;
  assert.deepEqual(verifyWebhook(body, signed(now, body, [other, secret]), secret), event);

  const refused = (fn: () => unknown, message: RegExp) =>
    assert.throws(fn, (error: unknown) => error instanceof WebhookVerificationError && message.test(error.message));
  refused(() => verifyWebhook(body.replace('ACTIVE', 'CANCELED'), signed(now), secret), /signature/);
  refused(() => verifyWebhook(body, signed(now), other), /signature/);
  refused(() => verifyWebhook(body, signed(now - 6 * 60), secret), /too old/);
  refused(() => verifyWebhook(body, signed(now + 6 * 60), secret), /too new/);
  refused(() => verifyWebhook(body, { 'webhook-id': 'evt_1' }, secret), /headers/i);
  // Four minutes away is within the tolerance.
  assert.deepEqual(verifyWebhook(body, signed(now - 4 * 60), secret), event);
  // Parsed JSON is not the raw body: the signature could not be checked against it.
  assert.throws(() => verifyWebhook(JSON.parse(body), signed(now), secret), TypeError);
});
