import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { get, JSON_UTF8 } from '../helpers.ts';

describeBackends('GET /v1/payment_links/{id}', (build) => {
  test('reads a payment link', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers exactly 200 with the record the creation answered', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-02-01T08:00:00Z');
      const created = await createPaymentLink(app, merchant, {
        title: 'Plan Anual',
        amount: 99,
        currency: 'BRL',
        interval_type: 'YEAR',
        interval_count: 3,
        trial_interval_type: 'MONTH',
        trial_interval_count: 1,
        signup_fee_amount: 10,
        external_id: 'anual-br',
      });
      const res = await get(app, merchant, `/v1/payment_links/${created.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], JSON_UTF8);
      assert.deepEqual(res.json(), {
        id: created.id,
        title: 'Plan Anual',
        amount: 99,
        currency: 'BRL',
        interval_type: 'YEAR',
        interval_count: 3,
        trial_interval_type: 'MONTH',
        trial_interval_count: 1,
        signup_fee_amount: 10,
        gross_total_amount: 307,
        external_id: 'anual-br',
        status: 'ACTIVE',
        version: 1,
        user_id: merchant.id,
        public_url: `http://127.0.0.1:3000/l/${created.id}`,
        created_at: '2026-02-01T08:00:00Z',
        updated_at: '2026-02-01T08:00:00Z',
      });
    });

    await t.test('still answers an archived link, with status ARCHIVED', async () => {
      const { app, merchant } = await fresh();
      const created = await createPaymentLink(app, merchant);
      await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${created.id}/archive`,
        headers: merchant.authHeaders,
      });
      const res = await get(app, merchant, `/v1/payment_links/${created.id}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().status, 'ARCHIVED');
    });

    await t.test('works when the GET carries Content-Type: application/json and no body', async () => {
      const { app, merchant } = await fresh();
      const created = await createPaymentLink(app, merchant);
      const res = await app.inject({
        method: 'GET',
        url: `/v1/payment_links/${created.id}`,
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().id, created.id);
    });
  });
});
