import assert from 'node:assert/strict';
import { test } from 'node:test';
import { paymentBody } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';

describeBackends('POST /v1/checkout_preferences', (build) => {
  test('creates a PAYMENT preference and answers 201 with the full record', async (t) => {
    const { app, merchant, clock } = await build(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: paymentBody({ external_id: 'order-42' }),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8');
    const body = res.json();
    assert.match(body.id, /^[A-Za-z0-9]{22}$/);
    const now = clock.now().getTime();
    assert.deepEqual(body, {
      id: body.id,
      type: 'PAYMENT',
      status: 'OPEN',
      amount: 16.9,
      currency: 'USD',
      title: 'Tea for two',
      origin: 'API',
      origin_id: null,
      external_id: 'order-42',
      user_id: merchant.id,
      payment_link_id: null,
      payer: { email: null, first_name: null, last_name: null, phone_number: null },
      payment_method_types: null,
      selected_payment_method_id: null,
      custom_urls: { status_changes_webhook: null, success_payment_redirect: null, error_payment_redirect: null },
      expiration_date: `${new Date(now - (now % 1000) + 15 * 60_000).toISOString().slice(0, 19)}Z`,
      created_at: `${new Date(now).toISOString().slice(0, 19)}Z`,
      updated_at: `${new Date(now).toISOString().slice(0, 19)}Z`,
      checkout_url: `http://127.0.0.1:3000/checkout/${body.id}`,
      payment_order_id: null,
    });
    const read = await app.inject({
      method: 'GET',
      url: `/v1/checkout_preferences/${body.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.json(), body);
  });

  test('rounds an amount with many decimals half-up to the currency decimals', async (t) => {
    const { app, merchant } = await build(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: paymentBody({ amount: 6.896551724137931 }),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().amount, 6.9);
  });
});
