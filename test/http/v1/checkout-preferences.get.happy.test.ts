import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { get, JSON_UTF8, USD_CARD_ID } from '../helpers.ts';

describeBackends('GET /v1/checkout_preferences/{id}', (build) => {
  test('reads a checkout preference', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers exactly 200 with the record the creation answered, every member filled', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-03-01T09:30:00Z');
      const created = await createPreference(app, merchant, {
        external_id: '3f6c2a1e-9b7d-4c1a-8e2f-5d4b3a2c1b0e',
        payer: { email: 'ana@example.com', name: 'Ana', last_name: 'Pérez', phone: '+56 9 1234 5678' },
        payment_method_types: ['CARD'],
        selected_payment_method_id: USD_CARD_ID,
        expiration_date: '2026-03-01T10:00:00Z',
        custom_urls: {
          status_changes_webhook: 'https://shop.example/hook?token=abc',
          success_payment_redirect: 'https://shop.example/ok?order=1',
          error_payment_redirect: 'https://shop.example/ko?order=1',
        },
      });
      const res = await get(app, merchant, `/v1/checkout_preferences/${created.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], JSON_UTF8);
      assert.deepEqual(res.json(), {
        id: created.id,
        type: 'PAYMENT',
        status: 'OPEN',
        amount: 16.9,
        currency: 'USD',
        title: 'Tea for two',
        origin: 'API',
        origin_id: null,
        external_id: '3f6c2a1e-9b7d-4c1a-8e2f-5d4b3a2c1b0e',
        user_id: merchant.id,
        payment_link_id: null,
        payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Pérez', phone_number: '+56912345678' },
        payment_method_types: ['CARD'],
        selected_payment_method_id: USD_CARD_ID,
        custom_urls: {
          status_changes_webhook: 'https://shop.example/hook?token=abc',
          success_payment_redirect: 'https://shop.example/ok?order=1',
          error_payment_redirect: 'https://shop.example/ko?order=1',
        },
        expiration_date: '2026-03-01T10:00:00Z',
        created_at: '2026-03-01T09:30:00Z',
        updated_at: '2026-03-01T09:30:00Z',
        checkout_url: `http://127.0.0.1:3000/checkout/${created.id}`,
        payment_order_id: null,
      });
      assert.deepEqual(res.json(), created);
    });

    await t.test(
      'answers a SUBSCRIPTION preference with the amount, currency, title and id of its payment link',
      async () => {
        const { app, merchant } = await fresh();
        const link = await createPaymentLink(app, merchant, { title: 'Plan Plata', amount: 4.5, currency: 'EUR' });
        const created = await createPreference(app, merchant, { type: 'SUBSCRIPTION', payment_link_id: link.id });
        const read = (await get(app, merchant, `/v1/checkout_preferences/${created.id}`)).json();
        assert.equal(read.type, 'SUBSCRIPTION');
        assert.equal(read.payment_link_id, link.id);
        assert.equal(read.amount, 4.5);
        assert.equal(read.currency, 'EUR');
        assert.equal(read.title, 'Plan Plata');
        assert.deepEqual(read, created);
      },
    );

    await t.test('answers status EXPIRED from the moment the expiration date passes', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-03-01T09:30:00Z');
      const created = await createPreference(app, merchant);
      clock.set('2026-03-01T09:44:59Z');
      assert.equal((await get(app, merchant, `/v1/checkout_preferences/${created.id}`)).json().status, 'OPEN');
      clock.set('2026-03-01T09:45:00Z');
      const expired = (await get(app, merchant, `/v1/checkout_preferences/${created.id}`)).json();
      assert.equal(expired.status, 'EXPIRED');
      assert.equal(expired.expiration_date, '2026-03-01T09:45:00Z');
    });

    await t.test('answers status PAID and the latest payment_order_id once an order is paid', async () => {
      const { app, merchant } = await fresh();
      const externalId = `order-${'7'.repeat(80)}|user-42`;
      const created = await createPreference(app, merchant, { external_id: externalId });
      const paid = await app.inject({
        method: 'POST',
        url: `/v1/test_helpers/checkout_preferences/${created.id}/pay`,
        headers: merchant.authHeaders,
        payload: { payment_method_id: USD_CARD_ID },
      });
      assert.equal(paid.statusCode, 201, paid.body);
      const read = (await get(app, merchant, `/v1/checkout_preferences/${created.id}`)).json();
      assert.equal(read.status, 'PAID');
      assert.equal(read.payment_order_id, paid.json().id);
      assert.equal(read.external_id, externalId);
      assert.equal(paid.json().external_id, externalId);
      assert.equal(paid.json().checkout_preference_id, created.id);
    });

    await t.test('works when the GET carries Content-Type: application/json and no body', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant);
      for (const headers of [
        { 'content-type': 'application/json' },
        { 'content-type': 'application/json', 'content-length': '0' },
      ]) {
        const res = await app.inject({
          method: 'GET',
          url: `/v1/checkout_preferences/${created.id}`,
          headers: { ...merchant.authHeaders, ...headers },
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().id, created.id);
      }
    });
  });
});
