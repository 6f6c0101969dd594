import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { assertError, UNKNOWN_ID } from '../helpers.ts';

describeBackends('POST /v1/payment_links/{id}/archive errors', (build) => {
  test('refuses to archive what is not there', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers 404 NOT_FOUND for ids that name no payment link, with one identical body', async () => {
      const { app, merchant } = await fresh();
      const preference = await createPreference(app, merchant);
      for (const id of [UNKNOWN_ID, preference.id, 'gold', 'x'.repeat(64)]) {
        const res = await app.inject({
          method: 'POST',
          url: `/v1/payment_links/${id}/archive`,
          headers: merchant.authHeaders,
        });
        assertError(res, 404, 'NOT_FOUND');
        assert.equal(res.body, '{"messages":["payment link not found"],"code":"NOT_FOUND"}', id);
      }
    });

    await t.test('answers 405 METHOD_NOT_ALLOWED with Allow: POST for other methods', async () => {
      const { app, merchant } = await fresh();
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
        const res = await app.inject({
          method,
          url: `/v1/payment_links/${UNKNOWN_ID}/archive`,
          headers: merchant.authHeaders,
        });
        assertError(res, 405, 'METHOD_NOT_ALLOWED');
        assert.equal(res.headers.allow, 'POST', res.body);
      }
    });
  });
});
