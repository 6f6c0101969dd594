import assert from 'node:assert/strict';
import { test } from 'node:test';
import { subscriptionPlanBody } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { assertError, assertWrongInput, assertWrongInputAbout, get } from '../helpers.ts';

const BOUND = (field: string, currency: string) =>
  `${field} must be between 0.1 and 3000 USD (converted from ${currency} at the service's rate table)`;

describeBackends('POST /v1/payment_links errors', (build) => {
  test('refuses a definition that breaks a rule with 400 WRONG_INPUT naming the field', async (t) => {
    const { app, merchant } = await build(t);
    const create = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: merchant.authHeaders,
        payload: body as Record<string, unknown>,
      });

    await t.test('answers 400 WRONG_INPUT naming every missing required member', async () => {
      assertWrongInput(await create({}), [
        'title is required',
        'amount is required',
        'currency is required',
        'interval_type is required',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for an empty or blank title', async () => {
      assertWrongInput(await create(subscriptionPlanBody({ title: '' })), [
        'title must NOT have fewer than 1 characters',
      ]);
      assertWrongInput(await create(subscriptionPlanBody({ title: '   ' })), ['title must not be empty']);
      assertWrongInput(await create(subscriptionPlanBody({ title: 'x'.repeat(256) })), [
        'title must NOT have more than 255 characters',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for an amount sent as a string', async () => {
      assertWrongInput(await create(subscriptionPlanBody({ amount: '9.99' })), ['amount must be of type number']);
    });

    await t.test('answers 400 WRONG_INPUT for amounts outside 0.10–3000.00 USD', async () => {
      for (const [amount, currency] of [
        [0.09, 'USD'],
        [3000.01, 'USD'],
        [93, 'CLP'],
        [2_820_001, 'CLP'],
      ] as const) {
        assertWrongInput(await create(subscriptionPlanBody({ amount, currency })), [BOUND('amount', currency)]);
      }
      assertWrongInput(await create(subscriptionPlanBody({ amount: 0 })), [
        'amount must be greater than 0 after rounding to 2 decimals',
      ]);
      assertWrongInput(await create(subscriptionPlanBody({ amount: -1 })), [
        'amount must be greater than 0 after rounding to 2 decimals',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for an unsupported currency', async () => {
      const res = await create(subscriptionPlanBody({ currency: 'XYZ' }));
      assertWrongInput(res, ['currency must be one of the supported currencies (GET /v1/currencies), got XYZ']);
    });

    await t.test('answers 400 WRONG_INPUT for an unknown interval type', async () => {
      for (const intervalType of ['HOUR', 'month', 'QUARTER']) {
        assertWrongInput(await create(subscriptionPlanBody({ interval_type: intervalType })), [
          'interval_type must be one of DAY, WEEK, MONTH, YEAR',
        ]);
      }
    });

    await t.test('answers 400 WRONG_INPUT for an interval count that is not 1 to 1000', async () => {
      assertWrongInputAbout(
        await create(subscriptionPlanBody({ interval_count: 0 })),
        'interval_count',
        'interval_count must be >= 1',
      );
      assertWrongInputAbout(
        await create(subscriptionPlanBody({ interval_count: 1001 })),
        'interval_count',
        'interval_count must be <= 1000',
      );
      assertWrongInput(await create(subscriptionPlanBody({ interval_count: 1.5 })), [
        'interval_count must be of type integer or null',
      ]);
      assertWrongInput(await create(subscriptionPlanBody({ interval_count: '12' })), [
        'interval_count must be of type integer or null',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for a trial type without a count, or a count without a type', async () => {
      assertWrongInput(await create(subscriptionPlanBody({ trial_interval_type: 'DAY' })), [
        'trial_interval_type and trial_interval_count must be given together',
      ]);
      assertWrongInput(await create(subscriptionPlanBody({ trial_interval_count: 7 })), [
        'trial_interval_type and trial_interval_count must be given together',
      ]);
      assertWrongInputAbout(
        await create(subscriptionPlanBody({ trial_interval_type: 'HOUR', trial_interval_count: 7 })),
        'trial_interval_type',
        'trial_interval_type must be one of DAY, WEEK, MONTH, YEAR',
      );
    });

    await t.test('answers 400 WRONG_INPUT for a negative or out-of-bound sign-up fee', async () => {
      assertWrongInputAbout(
        await create(subscriptionPlanBody({ signup_fee_amount: -1 })),
        'signup_fee_amount',
        'signup_fee_amount must be >= 0',
      );
      assertWrongInput(await create(subscriptionPlanBody({ signup_fee_amount: 5000 })), [
        BOUND('signup_fee_amount', 'USD'),
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for an external_id longer than 255 characters', async () => {
      assertWrongInputAbout(
        await create(subscriptionPlanBody({ external_id: 'x'.repeat(256) })),
        'external_id',
        'external_id must NOT have more than 255 characters',
      );
    });

    await t.test('answers 400 WRONG_INPUT for several problems at once', async () => {
      assertWrongInput(await create(subscriptionPlanBody({ title: ' ', amount: 0.01, trial_interval_count: 3 })), [
        'title must not be empty',
        BOUND('amount', 'USD'),
        'trial_interval_type and trial_interval_count must be given together',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT for a body that is not a JSON object', async () => {
      for (const payload of ['[]', '"plan"', '{"title":']) {
        const res = await app.inject({
          method: 'POST',
          url: '/v1/payment_links',
          headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
          payload,
        });
        assertError(res, 400, 'WRONG_INPUT');
      }
    });

    await t.test('answers 415 UNSUPPORTED_MEDIA_TYPE for a form body', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: { ...merchant.authHeaders, 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'title=Gold&amount=9.99',
      });
      assertError(res, 415, 'UNSUPPORTED_MEDIA_TYPE');
    });

    await t.test('creates nothing when it refuses a request', async () => {
      const list = await get(app, merchant, '/v1/payment_links');
      assert.deepEqual(list.json(), { data: [], has_more: false, next_cursor: null });
    });
  });
});
