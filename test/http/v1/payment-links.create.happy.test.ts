import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subscriptionPlanBody } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { get, JSON_UTF8 } from '../helpers.ts';

describeBackends('POST /v1/payment_links', (build) => {
  test('creates subscription definitions', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('creates a subscription definition and answers 201 with the full record', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const res = await app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: merchant.authHeaders,
        payload: subscriptionPlanBody({ external_id: 'plan-gold' }),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.headers['content-type'], JSON_UTF8);
      const body = res.json();
      assert.match(body.id, /^[A-Za-z0-9]{22}$/);
      assert.deepEqual(body, {
        id: body.id,
        title: 'Gold plan',
        amount: 9.99,
        currency: 'USD',
        interval_type: 'MONTH',
        interval_count: 12,
        trial_interval_type: null,
        trial_interval_count: 0,
        signup_fee_amount: 0,
        gross_total_amount: 119.88,
        external_id: 'plan-gold',
        status: 'ACTIVE',
        version: 1,
        user_id: merchant.id,
        public_url: `http://127.0.0.1:3000/l/${body.id}`,
        created_at: '2026-01-15T12:00:00Z',
        updated_at: '2026-01-15T12:00:00Z',
      });
      const read = await get(app, merchant, `/v1/payment_links/${body.id}`);
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), body);
    });

    await t.test('keeps a trial and a sign-up fee, and counts the fee once in the plan total', async () => {
      const { app, merchant } = await fresh();
      const res = await app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: merchant.authHeaders,
        payload: subscriptionPlanBody({
          amount: 20,
          interval_type: 'WEEK',
          interval_count: 4,
          trial_interval_type: 'DAY',
          trial_interval_count: 7,
          signup_fee_amount: 5.5,
        }),
      });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.deepEqual(
        [
          body.interval_type,
          body.interval_count,
          body.trial_interval_type,
          body.trial_interval_count,
          body.signup_fee_amount,
          body.gross_total_amount,
        ],
        ['WEEK', 4, 'DAY', 7, 5.5, 85.5],
      );
    });

    await t.test('answers gross_total_amount null for a plan that runs until cancelled', async () => {
      const { app, merchant } = await fresh();
      for (const overrides of [{ interval_count: null }, { interval_count: undefined }]) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/payment_links',
          headers: merchant.authHeaders,
          payload: subscriptionPlanBody({ ...overrides, interval_type: 'YEAR' }),
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().interval_count, null);
        assert.equal(res.json().gross_total_amount, null);
      }
    });

    await t.test('rounds amounts half-up to the currency decimals', async () => {
      const { app, merchant } = await fresh();
      const cases: [Record<string, unknown>, number, number][] = [
        [{ amount: 9990.5, currency: 'CLP', interval_count: 12 }, 9991, 119_892],
        [{ amount: 6.896551724137931, currency: 'USD', interval_count: 3 }, 6.9, 20.7],
        [{ amount: 1.005, currency: 'USD', interval_count: 2 }, 1.01, 2.02],
        [{ amount: 85_807.04, currency: 'ARS', interval_count: 1 }, 85_807.04, 85_807.04],
      ];
      for (const [overrides, amount, total] of cases) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/payment_links',
          headers: merchant.authHeaders,
          payload: subscriptionPlanBody(overrides),
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().amount, amount, res.body);
        assert.equal(res.json().gross_total_amount, total, res.body);
      }
    });

    await t.test('accepts every interval type and both ends of the amount bound', async () => {
      const { app, merchant } = await fresh();
      for (const [intervalType, amount] of [
        ['DAY', 0.1],
        ['WEEK', 3000],
        ['MONTH', 0.0999],
        ['YEAR', 2_820_000],
      ] as const) {
        const currency = amount === 2_820_000 ? 'CLP' : 'USD';
        const res = await app.inject({
          method: 'POST',
          url: '/v1/payment_links',
          headers: merchant.authHeaders,
          payload: subscriptionPlanBody({ interval_type: intervalType, amount, currency }),
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.json().interval_type, intervalType);
      }
    });

    await t.test('keeps a non-ASCII title and an external_id verbatim, ignoring unknown members', async () => {
      const { app, merchant } = await fresh();
      const res = await app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: merchant.authHeaders,
        payload: subscriptionPlanBody({
          title: 'Suscripción Oro — 月額 ✨',
          external_id: ' plan|gold|2026 ',
          merchant_id: 'someone-else',
          status: 'ARCHIVED',
          version: 9,
          description: 'ignored',
        }),
      });
      assert.equal(res.statusCode, 201, res.body);
      const body = res.json();
      assert.equal(body.title, 'Suscripción Oro — 月額 ✨');
      assert.equal(body.external_id, ' plan|gold|2026 ');
      assert.equal(body.user_id, merchant.id);
      assert.equal(body.status, 'ACTIVE');
      assert.equal(body.version, 1);
      assert.equal('description' in body, false);
    });
  });
});
