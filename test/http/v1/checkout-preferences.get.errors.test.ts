import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { assertError, get, UNKNOWN_ID } from '../helpers.ts';

const NOT_FOUND = '{"messages":["checkout preference not found"],"code":"NOT_FOUND"}';

describeBackends('GET /v1/checkout_preferences/{id} errors', (build) => {
  test('refuses ids that name no preference of the caller', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers 404 NOT_FOUND for ids that name no preference, with one identical body', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant);
      const link = await createPaymentLink(app, merchant);
      const ids = [
        UNKNOWN_ID,
        created.id.toLowerCase() === created.id ? created.id.toUpperCase() : created.id.toLowerCase(),
        created.id.slice(0, 21),
        `${created.id}A`,
        link.id,
        'abc',
        '0',
        '%20',
        'a%2Fb',
        "1'%20OR%20'1'%3D'1",
        'AAAAAAAAAAAAAAAAAAAAA%C3%A9',
        'x'.repeat(64),
      ];
      for (const id of ids) {
        const res = await get(app, merchant, `/v1/checkout_preferences/${id}`);
        assertError(res, 404, 'NOT_FOUND');
        assert.equal(res.body, NOT_FOUND, id);
      }
    });

    await t.test('answers 404 NOT_FOUND with the error body for a trailing slash', async () => {
      const { app, merchant } = await fresh();
      const created = await createPreference(app, merchant);
      const res = await get(app, merchant, `/v1/checkout_preferences/${created.id}/`);
      assertError(res, 404, 'NOT_FOUND');
    });

    await t.test('answers 400 WRONG_INPUT for an id longer than any id can be', async () => {
      const { app, merchant } = await fresh();
      const res = await get(app, merchant, `/v1/checkout_preferences/${'x'.repeat(65)}`);
      assertError(res, 400, 'WRONG_INPUT', ['params id must NOT have more than 64 characters']);
    });
  });
});
