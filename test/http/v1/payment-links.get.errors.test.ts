import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { assertError, get, UNKNOWN_ID } from '../helpers.ts';

const NOT_FOUND = '{"messages":["payment link not found"],"code":"NOT_FOUND"}';

describeBackends('GET /v1/payment_links/{id} errors', (build) => {
  test('refuses ids that name no payment link of the caller', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers 404 NOT_FOUND for ids that name no payment link, with one identical body', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const preference = await createPreference(app, merchant);
      for (const id of [UNKNOWN_ID, preference.id, link.id.slice(1), `${link.id}x`, 'gold', '%20', 'x'.repeat(64)]) {
        const res = await get(app, merchant, `/v1/payment_links/${id}`);
        assertError(res, 404, 'NOT_FOUND');
        assert.equal(res.body, NOT_FOUND, id);
      }
    });

    await t.test('answers 400 WRONG_INPUT for an id longer than any id can be', async () => {
      const { app, merchant } = await fresh();
      const res = await get(app, merchant, `/v1/payment_links/${'x'.repeat(65)}`);
      assertError(res, 400, 'WRONG_INPUT', ['params id must NOT have more than 64 characters']);
    });
  });
});
