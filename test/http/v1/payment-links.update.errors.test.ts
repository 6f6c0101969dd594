import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import type { TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';
import { assertError, assertWrongInput, UNKNOWN_ID } from '../helpers.ts';

function update(
  app: FastifyInstance,
  merchant: TestMerchant,
  id: string,
  payload: unknown,
  method: 'POST' | 'PATCH' = 'POST',
) {
  return app.inject({
    method,
    url: `/v1/payment_links/${id}`,
    headers: merchant.authHeaders,
    payload: payload as Record<string, unknown>,
  });
}

describeBackends('POST /v1/payment_links/{id} errors', (build) => {
  test('refuses edits that are not allowed, and leaves the plan as it was', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });

    await t.test('answers 404 NOT_FOUND for ids that name no payment link of this merchant', async () => {
      const { app, merchant, createMerchant } = await fresh();
      const other = await createMerchant();
      const theirs = await createPaymentLink(app, other);
      const preference = await createPreference(app, merchant);
      for (const id of [UNKNOWN_ID, theirs.id, preference.id, 'gold']) {
        const res = await update(app, merchant, id, { amount: 12 });
        assertError(res, 404, 'NOT_FOUND', ['payment link not found']);
      }
      const untouched = await app.inject({ url: `/v1/payment_links/${theirs.id}`, headers: other.authHeaders });
      assert.equal(untouched.json().version, 1, untouched.body);
      assert.equal(untouched.json().amount, 9.99, untouched.body);
    });

    await t.test('answers 409 CONFLICT for an archived plan', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const archived = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${link.id}/archive`,
        headers: merchant.authHeaders,
      });
      assert.equal(archived.statusCode, 200, archived.body);
      const res = await update(app, merchant, link.id, { amount: 12 });
      assertError(res, 409, 'CONFLICT', [
        'payment link cannot be updated: status is ARCHIVED, expected ACTIVE; create a new payment link',
      ]);
    });

    await t.test('answers 400 WRONG_INPUT naming each bad member, for POST and PATCH alike', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant, { amount: 10 });
      for (const method of ['POST', 'PATCH'] as const) {
        assertWrongInput(await update(app, merchant, link.id, { amount: 0.01 }, method), [
          "amount must be between 0.1 and 3000 USD (converted from USD at the service's rate table)",
        ]);
        assertWrongInput(await update(app, merchant, link.id, { currency: 'BRL' }, method), [
          'currency cannot be changed (the plan is in USD); create a new payment link for another currency',
        ]);
        assertWrongInput(await update(app, merchant, link.id, { title: '   ' }, method), ['title must not be empty']);
        assertWrongInput(await update(app, merchant, link.id, { trial_interval_type: 'DAY' }, method), [
          'trial_interval_type and trial_interval_count must be given together',
        ]);
        const typed = await update(app, merchant, link.id, { amount: '12', interval_type: 'FORTNIGHT' }, method);
        assertError(typed, 400, 'WRONG_INPUT');
        const messages = JSON.parse(typed.body).messages as string[];
        assert.ok(
          messages.some((m) => m.startsWith('amount')),
          typed.body,
        );
        assert.ok(
          messages.some((m) => m.startsWith('interval_type')),
          typed.body,
        );
        assertError(await update(app, merchant, link.id, { interval_count: 0 }, method), 400, 'WRONG_INPUT');
      }
      const read = await app.inject({ url: `/v1/payment_links/${link.id}`, headers: merchant.authHeaders });
      assert.equal(read.json().version, 1, read.body);
      assert.equal(read.json().amount, 10, read.body);
    });

    await t.test('answers 422 IDEMPOTENCY_KEY_REUSED when a key comes back with another edit', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant, { amount: 10 });
      const headers = { ...merchant.authHeaders, 'idempotency-key': 'same-key' };
      const first = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${link.id}`,
        headers,
        payload: { amount: 11 },
      });
      assert.equal(first.statusCode, 200, first.body);
      const second = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${link.id}`,
        headers,
        payload: { amount: 12 },
      });
      assertError(second, 422, 'IDEMPOTENCY_KEY_REUSED');
    });
  });
});
