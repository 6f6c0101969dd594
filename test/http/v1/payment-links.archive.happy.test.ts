import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { createPreferenceRequest, get, JSON_UTF8 } from '../helpers.ts';

describeBackends('POST /v1/payment_links/{id}/archive', (build) => {
  test('archives payment links', async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('archives the link and answers 200 with the updated record', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const link = await createPaymentLink(app, merchant);
      clock.set('2026-01-15T13:00:00Z');
      const res = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${link.id}/archive`,
        headers: merchant.authHeaders,
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], JSON_UTF8);
      assert.deepEqual(res.json(), { ...link, status: 'ARCHIVED', updated_at: '2026-01-15T13:00:00Z' });
      assert.deepEqual((await get(app, merchant, `/v1/payment_links/${link.id}`)).json(), res.json());
    });

    await t.test('answers 200 with the same record when the link is already archived', async () => {
      const { app, merchant, clock } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const archive = () =>
        app.inject({ method: 'POST', url: `/v1/payment_links/${link.id}/archive`, headers: merchant.authHeaders });
      const first = await archive();
      clock.advance(60_000);
      const second = await archive();
      assert.equal(second.statusCode, 200, second.body);
      assert.deepEqual(second.json(), first.json());
    });

    await t.test('accepts Content-Type: application/json with no body or an empty object', async () => {
      const { app, merchant } = await fresh();
      for (const extra of [{ headers: { 'content-type': 'application/json' } }, { payload: {} }]) {
        const link = await createPaymentLink(app, merchant);
        const res = await app.inject({
          method: 'POST',
          url: `/v1/payment_links/${link.id}/archive`,
          ...extra,
          headers: { ...merchant.authHeaders, ...('headers' in extra ? extra.headers : {}) },
        });
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.json().status, 'ARCHIVED');
      }
    });

    await t.test('stops new subscriptions but leaves preferences created before untouched', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const before = await createPreference(app, merchant, { type: 'SUBSCRIPTION', payment_link_id: link.id });
      await app.inject({ method: 'POST', url: `/v1/payment_links/${link.id}/archive`, headers: merchant.authHeaders });
      const refused = await createPreferenceRequest(app, merchant, {
        type: 'SUBSCRIPTION',
        origin: 'API',
        payment_link_id: link.id,
      });
      assert.equal(refused.statusCode, 400, refused.body);
      const read = await get(app, merchant, `/v1/checkout_preferences/${before.id}`);
      assert.equal(read.statusCode, 200, read.body);
      assert.deepEqual(read.json(), before);
    });
  });
});
