import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../support/builders.ts';
import { getOrder, pay } from '../support/payments.ts';
import { describeBackends } from '../support/test-app.ts';

describeBackends('R1 concurrent payment of one preference', (build) => {
  test('fifty simultaneous card payments on each of twenty preferences close exactly one order and capture once', async (t) => {
    const { app, merchant, cobro } = await build(t);
    for (let p = 0; p < 20; p++) {
      const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'], amount: 10 + p });
      const results = await Promise.all(Array.from({ length: 50 }, () => pay(app, merchant, pref.id)));
      const codes = results.map((r) => r.statusCode);
      assert.ok(
        codes.every((c) => c === 201 || c === 409),
        `unexpected statuses ${codes.join(',')}`,
      );
      for (const r of results.filter((x) => x.statusCode === 409)) {
        assert.equal(JSON.parse(r.body).code, 'CONFLICT', r.body);
      }
      const orders = await cobro.database.db
        .selectFrom('payment_orders')
        .select(['status'])
        .where('checkout_preference_id', '=', pref.id)
        .execute();
      assert.equal(orders.filter((o) => o.status === 'CLOSED').length, 1, JSON.stringify(orders));
    }
    const approved = (await cobro.providers.testProcessor.listCharges()).filter((c) => c.status === 'approved');
    assert.equal(approved.length, 20, 'one processor capture per preference');
  });

  test('a PIX payment confirmed five times at once closes once and emits one CLOSED event', async (t) => {
    const { app, merchant, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const results = await Promise.all(
      Array.from({ length: 5 }, () =>
        app.inject({
          method: 'POST',
          url: `/v1/test_helpers/payment_orders/${order.id}/confirm`,
          headers: merchant.authHeaders,
        }),
      ),
    );
    assert.equal(results.filter((r) => r.statusCode === 200).length, 1, results.map((r) => r.body).join('\n'));
    assert.ok(results.every((r) => r.statusCode === 200 || r.statusCode === 409));
    const closed = await cobro.database.db
      .selectFrom('events')
      .select('id')
      .where('entity_id', '=', order.id)
      .where('event_type', '=', 'PAYMENT_ORDER.CLOSED')
      .execute();
    assert.equal(closed.length, 1);
  });
});

describeBackends('R6 expiry boundaries and late payments', (build) => {
  test('pays one second before the expiry and refuses one second after', async (t) => {
    const { app, merchant, clock } = await build(t);
    const before = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    clock.advance(15 * 60_000 - 1000);
    assert.equal((await pay(app, merchant, before.id)).json().status, 'CLOSED');
    const after = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    clock.advance(15 * 60_000 + 1000);
    const late = await pay(app, merchant, after.id);
    assert.equal(late.statusCode, 409, late.body);
    assert.deepEqual(JSON.parse(late.body), {
      code: 'CONFLICT',
      messages: ['checkout preference cannot be paid: status is EXPIRED, expected OPEN'],
    });
  });

  test('a PIX payment arriving after the order expired is recorded as PAID_LATE, never as a second CLOSED', async (t) => {
    const { app, merchant, clock, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { currency: 'BRL', payment_method_types: ['PIX'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    clock.advance(16 * 60_000);
    await cobro.runJobs();
    assert.equal((await getOrder(app, merchant, order.id)).status, 'EXPIRED');
    const res = await app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${order.id}/confirm`,
      headers: merchant.authHeaders,
    });
    assert.equal(res.statusCode, 409, res.body);
    const read = await getOrder(app, merchant, order.id);
    assert.equal(read.status, 'EXPIRED');
    assert.equal(read.anomaly, 'PAID_LATE');
  });

  test('crypto: an underpayment is recorded and the order stays open; the rest closes it', async (t) => {
    const { app, merchant, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { amount: 20, payment_method_types: ['CRYPTO_ONCHAIN'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const ins = order.payment_instructions as { network: string; address: string; required_confirmations: number };
    const chain = cobro.providers.testChain;
    chain.send(ins.network, ins.address, 5_000_000n, ins.required_confirmations);
    await cobro.runJobs();
    let read = await getOrder(app, merchant, order.id);
    assert.equal(read.status, 'OPENED');
    assert.equal(read.anomaly, 'UNDERPAID');
    assert.equal(read.received_amount, 5);
    chain.send(ins.network, ins.address, 15_000_000n, 0);
    await cobro.runJobs();
    assert.equal((await getOrder(app, merchant, order.id)).status, 'OPENED', 'unconfirmed transactions do not count');
    chain.mine(ins.network, ins.required_confirmations);
    await cobro.runJobs();
    read = await getOrder(app, merchant, order.id);
    assert.equal(read.status, 'CLOSED');
    assert.equal(read.received_amount, 20);
  });

  test('crypto: an overpayment closes the order and is recorded as OVERPAID', async (t) => {
    const { app, merchant, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { amount: 20, payment_method_types: ['CRYPTO_ONCHAIN'] });
    const order = (await pay(app, merchant, pref.id, { outcome: 'PENDING' })).json();
    const ins = order.payment_instructions as { network: string; address: string; required_confirmations: number };
    cobro.providers.testChain.send(ins.network, ins.address, 25_000_000n, ins.required_confirmations);
    await cobro.runJobs();
    const read = await getOrder(app, merchant, order.id);
    assert.equal(read.status, 'CLOSED');
    assert.equal(read.anomaly, 'OVERPAID');
  });
});
