import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { createPreference } from '../../support/builders.ts';
import { pay } from '../../support/payments.ts';
import { describeBackends } from '../../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../../support/webhook-receiver.ts';

const LOOPBACK = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

describeBackends('webhook delivery', (build) => {
  test('a paid preference notifies its status_changes_webhook with OPENED and CLOSED, query string kept, signed', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, { env: LOOPBACK });
    const pref = await createPreference(app, merchant, {
      payment_method_types: ['CARD'],
      external_id: 'order-77',
      custom_urls: { status_changes_webhook: `${receiver.url}/hooks?token=abc` },
    });
    const order = (await pay(app, merchant, pref.id)).json();
    await drainWebhooks(cobro);
    assert.equal(receiver.received.length, 2, JSON.stringify(receiver.received.map((r) => r.body)));
    const settings = await app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: merchant.authHeaders });
    assert.equal(settings.statusCode, 200, settings.body);
    const verifier = new Webhook(settings.json().signing_secret);
    const types = [];
    for (const r of receiver.received) {
      assert.equal(r.url, '/hooks?token=abc');
      assert.equal(r.headers['content-type'], 'application/json');
      const body = verifier.verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      }) as Record<string, unknown>;
      assert.equal(body.id, r.headers['webhook-id']);
      assert.equal(body.entity_type, 'PAYMENT_ORDER');
      assert.equal(body.entity_id, order.id);
      assert.equal(body.payment_order_id, order.id);
      assert.equal(body.external_id, 'order-77');
      types.push(body.event_type);
    }
    assert.deepEqual(types.sort(), ['PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.OPENED']);
  });

  test('account endpoints receive the event types they subscribe to, signed with their own secret', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, { env: LOOPBACK });
    const created = await app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: merchant.authHeaders,
      payload: { url: `${receiver.url}/all`, event_types: ['PAYMENT_ORDER.CLOSED'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { secret, id } = created.json();
    assert.match(secret, /^whsec_[A-Za-z0-9+/=]{43,}$/);
    const read = await app.inject({ method: 'GET', url: `/v1/webhook_endpoints/${id}`, headers: merchant.authHeaders });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal('secret' in read.json(), false, 'the secret is shown only at creation');
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    await pay(app, merchant, pref.id);
    await drainWebhooks(cobro);
    assert.equal(receiver.received.length, 1);
    const r = receiver.received[0];
    assert.ok(r);
    const body = new Webhook(secret).verify(r.body, {
      'webhook-id': String(r.headers['webhook-id']),
      'webhook-timestamp': String(r.headers['webhook-timestamp']),
      'webhook-signature': String(r.headers['webhook-signature']),
    }) as Record<string, unknown>;
    assert.equal(body.event_type, 'PAYMENT_ORDER.CLOSED');
  });

  test('a failing receiver is retried with the same webhook-id until it answers 2xx, and every attempt is listed', async (t) => {
    const receiver = await startReceiver((_r, n) => ({ status: n <= 2 ? 500 : 200 }));
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, { env: { ...LOOPBACK, WEBHOOK_RETRY_DELAYS: '0,0,0' } });
    await app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: merchant.authHeaders,
      payload: { url: `${receiver.url}/x`, event_types: ['PAYMENT_ORDER.OPENED'] },
    });
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    await pay(app, merchant, pref.id, { outcome: 'PENDING' });
    await drainWebhooks(cobro);
    assert.equal(receiver.received.length, 3);
    assert.equal(new Set(receiver.received.map((r) => r.headers['webhook-id'])).size, 1);
    const eventId = String(receiver.received[0]?.headers['webhook-id']);
    const log = await app.inject({
      method: 'GET',
      url: `/v1/events/${eventId}/deliveries`,
      headers: merchant.authHeaders,
    });
    assert.equal(log.statusCode, 200, log.body);
    const delivery = log.json().data[0];
    assert.equal(delivery.status, 'SUCCEEDED');
    assert.deepEqual(
      delivery.attempt_log.map((a: { status_code: number }) => a.status_code),
      [500, 500, 200],
    );
  });

  test('a receiver on a private address is refused at creation without the development switch', async (t) => {
    const { app, merchant } = await build(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: merchant.authHeaders,
      payload: { url: 'http://127.0.0.1:9/hook' },
    });
    assert.equal(res.statusCode, 400, res.body);
    const pref = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: {
        type: 'PAYMENT',
        amount: 10,
        currency: 'USD',
        title: 't',
        origin: 'API',
        custom_urls: { status_changes_webhook: 'http://169.254.169.254/latest' },
      },
    });
    assert.equal(pref.statusCode, 400, pref.body);
    assert.match(pref.body, /custom_urls\.status_changes_webhook/);
  });
});
