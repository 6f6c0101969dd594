import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../../support/builders.ts';
import { getOrder, METHOD_CURRENCY, pay } from '../../support/payments.ts';
import { describeBackends } from '../../support/test-app.ts';

describeBackends('payment orders', (build) => {
  for (const type of ['CARD', 'PIX', 'CRYPTO_ONCHAIN', 'BANK_TRANSFER', 'CASH']) {
    test(`a ${type} payment closes the order, marks the preference PAID and reads back with exactly 200`, async (t) => {
      const { app, merchant } = await build(t);
      const pref = await createPreference(app, merchant, {
        currency: METHOD_CURRENCY[type],
        amount: 25,
        payment_method_types: [type],
        external_id: `ext-${type}`,
      });
      const res = await pay(app, merchant, pref.id, { outcome: 'PENDING' });
      assert.equal(res.statusCode, 201, res.body);
      const order = res.json();
      assert.equal(order.payment_method_type, type);
      assert.equal(order.external_id, `ext-${type}`);
      if (type === 'CARD') {
        assert.equal(order.status, 'CLOSED', res.body);
      } else {
        assert.equal(order.status, 'OPENED', res.body);
        assert.ok(order.payment_instructions, res.body);
        const confirmed = await app.inject({
          method: 'POST',
          url: `/v1/test_helpers/payment_orders/${order.id}/confirm`,
          headers: merchant.authHeaders,
        });
        assert.equal(confirmed.statusCode, 200, confirmed.body);
        assert.equal(confirmed.json().status, 'CLOSED');
      }
      const read = await getOrder(app, merchant, order.id);
      assert.equal(read.status, 'CLOSED');
      for (const member of [
        'id',
        'status',
        'external_id',
        'amount',
        'currency',
        'payment_method_type',
        'payer',
        'title',
        'created_at',
        'updated_at',
        'origin',
        'user_id',
      ]) {
        assert.ok(member in read, `missing ${member}`);
      }
      assert.match(String(read.created_at), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      const prefRead = await app.inject({
        method: 'GET',
        url: `/v1/checkout_preferences/${pref.id}`,
        headers: merchant.authHeaders,
      });
      assert.equal(prefRead.json().status, 'PAID', prefRead.body);
      assert.equal(prefRead.json().payment_order_id, order.id);
    });
  }

  test('PIX instructions carry a BR Code for the amount and the order as txid', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, {
      currency: 'BRL',
      amount: 12.34,
      payment_method_types: ['PIX'],
    });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const payload = String(order.payment_instructions?.pix_payload);
    assert.match(payload, /^000201/);
    assert.ok(payload.includes('540512.34'), payload);
    assert.ok(payload.includes(order.id), payload);
  });

  test('paying a checkout again expires the open order it replaces, as superseded, and keeps the new one open', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, {
      currency: 'BRL',
      amount: 12.34,
      payment_method_types: ['PIX'],
    });
    const first = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const second = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    assert.equal(first.status, 'OPENED');
    assert.equal(second.status, 'OPENED');
    const replaced = await getOrder(app, merchant, first.id);
    assert.equal(replaced.status, 'EXPIRED');
    assert.equal(replaced.failure_code, 'superseded');
    assert.equal((await getOrder(app, merchant, second.id)).status, 'OPENED');
    const third = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    assert.equal((await getOrder(app, merchant, second.id)).status, 'EXPIRED');
    assert.equal(
      (await getOrder(app, merchant, first.id)).updated_at,
      replaced.updated_at,
      'an expired order is left as it is',
    );
    assert.equal((await getOrder(app, merchant, third.id)).status, 'OPENED');
  });

  test('each crypto order gets a fresh address derived from the extended public key', async (t) => {
    const { app, merchant } = await build(t);
    const addresses = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const pref = await createPreference(app, merchant, { payment_method_types: ['CRYPTO_ONCHAIN'] });
      const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
      addresses.add(String(order.payment_instructions?.address));
    }
    assert.equal(addresses.size, 3);
  });

  test('a declined card rejects the order and leaves the preference open for another attempt', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const declined = (await pay(app, merchant, pref.id, { outcome: 'REJECTED' })).json();
    assert.equal(declined.status, 'REJECTED');
    assert.equal(declined.failure_code, 'card_declined');
    const approved = (await pay(app, merchant, pref.id)).json();
    assert.equal(approved.status, 'CLOSED');
  });

  test('the list filters by preference, status and external_id, newest first', async (t) => {
    const { app, merchant } = await build(t);
    const a = await createPreference(app, merchant, { payment_method_types: ['CARD'], external_id: 'A' });
    const b = await createPreference(app, merchant, { payment_method_types: ['CARD'], external_id: 'B' });
    await pay(app, merchant, a.id, { outcome: 'REJECTED' });
    await pay(app, merchant, a.id);
    await pay(app, merchant, b.id);
    const byPref = await app.inject({
      method: 'GET',
      url: `/v1/payment_orders?checkout_preference_id=${a.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(byPref.statusCode, 200, byPref.body);
    assert.deepEqual(
      byPref
        .json()
        .data.map((o: { status: string }) => o.status)
        .sort(),
      ['CLOSED', 'REJECTED'],
    );
    const closed = await app.inject({
      method: 'GET',
      url: '/v1/payment_orders?status=CLOSED',
      headers: merchant.authHeaders,
    });
    assert.equal(closed.json().data.length, 2, closed.body);
    const ext = await app.inject({
      method: 'GET',
      url: '/v1/payment_orders?external_id=B',
      headers: merchant.authHeaders,
    });
    assert.equal(ext.json().data.length, 1, ext.body);
    const bad = await app.inject({
      method: 'GET',
      url: '/v1/payment_orders?created_gte=yesterday',
      headers: merchant.authHeaders,
    });
    assert.equal(bad.statusCode, 400, bad.body);
  });

  test('a CLOSED card order is refunded through the processor and becomes REFUNDED', async (t) => {
    const { app, merchant, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const order = (await pay(app, merchant, pref.id)).json();
    const res = await app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${order.id}/refunds`,
      headers: merchant.authHeaders,
      payload: { reason: 'customer asked' },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'REFUNDED');
    assert.equal((await cobro.providers.testProcessor.listRefunds()).length, 1);
    const again = await app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${order.id}/refunds`,
      headers: merchant.authHeaders,
    });
    assert.equal(again.statusCode, 409, again.body);
    assert.equal(again.json().code, 'CONFLICT');
  });

  test('refunding an order that is not CLOSED answers 409 CONFLICT naming the statuses', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const res = await app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${order.id}/refunds`,
      headers: merchant.authHeaders,
    });
    assert.equal(res.statusCode, 409, res.body);
    assert.deepEqual(res.json(), {
      code: 'CONFLICT',
      messages: ['payment order cannot be refunded: status is OPENED, expected CLOSED'],
    });
  });

  test('the merchant confirms a bank transfer it saw arrive, with a live key too', async (t) => {
    const { app, cobro, createMerchant } = await build(t);
    const live = await createMerchant('live');
    await cobro.services.merchants.updateSettings(live.id, {
      bank: { bank_name: 'Banco', account_holder: 'Shop', account_number: '123', routing: '01' },
    });
    const pref = await createPreference(app, live, {
      currency: 'MXN',
      amount: 100,
      payment_method_types: ['BANK_TRANSFER'],
    });
    const order = await cobro.services.paymentStart
      .start(pref.id, {
        payer: { email: 'a@b.co', first_name: 'Ana', last_name: 'Lima' },
        paymentMethodId: null,
      })
      .catch(async () => {
        const methods = await cobro.services.paymentMethods.list({ type: 'BANK_TRANSFER', currency: 'MXN' });
        return cobro.services.paymentStart.start(pref.id, {
          payer: { email: 'a@b.co', first_name: 'Ana', last_name: 'Lima' },
          paymentMethodId: methods[0]?.id ?? null,
        });
      });
    const res = await app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${order.id}/confirm`,
      headers: live.authHeaders,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().status, 'CLOSED');
  });

  test('only bank transfers can be confirmed by the merchant', async (t) => {
    const { app, merchant } = await build(t);
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const res = await app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${order.id}/confirm`,
      headers: merchant.authHeaders,
    });
    assert.equal(res.statusCode, 409, res.body);
  });

  test('every status change writes exactly one event, with an increasing sequence', async (t) => {
    const { app, merchant, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const order = (await pay(app, merchant, pref.id)).json();
    await app.inject({ method: 'POST', url: `/v1/payment_orders/${order.id}/refunds`, headers: merchant.authHeaders });
    const events = await cobro.database.db
      .selectFrom('events')
      .selectAll()
      .where('entity_id', '=', order.id)
      .orderBy('sequence')
      .execute();
    assert.deepEqual(
      events.map((e) => [e.event_type, Number(e.sequence)]),
      [
        ['PAYMENT_ORDER.OPENED', 1],
        ['PAYMENT_ORDER.CLOSED', 2],
        ['PAYMENT_ORDER.REFUNDED', 3],
      ],
    );
    const body = JSON.parse(events[1]?.payload ?? '{}');
    assert.equal(body.entity_type, 'PAYMENT_ORDER');
    assert.equal(body.entity_id, order.id);
    assert.equal(body.payment_order_id, order.id);
    assert.equal(body.status, 'CLOSED');
    assert.notEqual(body.id, order.id);
  });
});
