import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../../support/builders.ts';
import { getOrder, pay } from '../../support/payments.ts';
import { BANK_DETAILS, describeBackends } from '../../support/test-app.ts';

describeBackends('test helpers', (build) => {
  test('answer 403 FORBIDDEN with a live key', async (t) => {
    const { app, createMerchant } = await build(t);
    const live = await createMerchant('live', { bank: BANK_DETAILS });
    const pref = await createPreference(app, live);
    for (const url of [
      `/v1/test_helpers/checkout_preferences/${pref.id}/pay`,
      '/v1/test_helpers/payment_orders/AAAAAAAAAAAAAAAAAAAAAA/confirm',
      '/v1/test_helpers/payment_orders/AAAAAAAAAAAAAAAAAAAAAA/expire',
    ]) {
      const res = await app.inject({ method: 'POST', url, headers: live.authHeaders, payload: {} });
      assert.equal(res.statusCode, 403, `${url}: ${res.body}`);
      assert.equal(res.json().code, 'FORBIDDEN');
    }
    const clock = await app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: live.authHeaders,
      payload: { seconds: 60 },
    });
    assert.equal(clock.statusCode, 403, clock.body);
  });

  test('advancing the clock past the expiry expires the preference and its open order', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const moved = await app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: merchant.authHeaders,
      payload: { seconds: 15 * 60 },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal((await getOrder(app, merchant, order.id)).status, 'EXPIRED');
    const read = await app.inject({
      method: 'GET',
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(read.json().status, 'EXPIRED');
    const again = await pay(app, merchant, pref.id);
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(JSON.parse(again.body).code, 'CONFLICT');
  });

  test("one merchant's clock does not move another's", async (t) => {
    const { app, merchant, createMerchant } = await build(t);
    const other = await createMerchant();
    const mine = await createPreference(app, merchant);
    const theirs = await createPreference(app, other);
    await app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: merchant.authHeaders,
      payload: { seconds: 3600 },
    });
    const a = await app.inject({
      method: 'GET',
      url: `/v1/checkout_preferences/${mine.id}`,
      headers: merchant.authHeaders,
    });
    const b = await app.inject({
      method: 'GET',
      url: `/v1/checkout_preferences/${theirs.id}`,
      headers: other.authHeaders,
    });
    assert.equal(a.json().status, 'EXPIRED');
    assert.equal(b.json().status, 'OPEN');
  });

  test('the expire helper expires an OPENED order and refuses a CLOSED one', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const res = await app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${order.id}/expire`,
      headers: merchant.authHeaders,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'EXPIRED');
    const card = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const closed = (await pay(app, merchant, card.id)).json();
    const refused = await app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${closed.id}/expire`,
      headers: merchant.authHeaders,
    });
    assert.equal(refused.statusCode, 409, refused.body);
  });

  test('pay validates like the checkout: an unknown method or a bad payer e-mail is 400 naming the field', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant);
    const unknown = await pay(app, merchant, pref.id, { payment_method_id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    assert.equal(unknown.statusCode, 400, unknown.body);
    assert.match(unknown.body, /payment_method_id/);
    const email = await pay(app, merchant, pref.id, { payer: { email: 'not-an-email' } });
    assert.equal(email.statusCode, 400, email.body);
    assert.match(email.body, /payer\.email/);
  });

  test('a preference locks after five declined card attempts', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    for (let i = 0; i < 5; i++) {
      assert.equal((await pay(app, merchant, pref.id, { outcome: 'REJECTED' })).json().status, 'REJECTED');
    }
    const locked = await pay(app, merchant, pref.id);
    assert.equal(locked.statusCode, 409, locked.body);
  });
});
