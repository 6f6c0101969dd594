import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference } from '../../support/builders.ts';
import { getOrder } from '../../support/payments.ts';
import { describeBackends } from '../../support/test-app.ts';

const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };

describeBackends('card payments through the test processor', (build) => {
  test('a card that approves after a delay stays OPENED, then closes when the processor is asked again', async (t) => {
    const { app, merchant, cobro, clock } = await build(t);
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const [method] = await cobro.services.orders.eligibleFor(
      await cobro.services.preferences.get({ ...merchant, merchantId: merchant.id, key: '' }, pref.id),
    );
    const order = await cobro.services.paymentStart.start(pref.id, {
      paymentMethodId: method?.id ?? null,
      payer: PAYER,
      card: { number: '4000 0000 0000 3220', expiry: '12/39', cvc: '123', holderName: 'Ana Lima' },
    });
    assert.equal(order.status, 'OPENED');
    clock.advance(5000);
    await cobro.runJobs();
    assert.equal((await getOrder(app, merchant, order.id)).status, 'CLOSED');
  });

  test('insufficient funds and processing errors reject the order with the processor code', async (t) => {
    const { app, merchant, cobro } = await build(t);
    for (const [pan, code] of [
      ['4000000000009995', 'insufficient_funds'],
      ['4000000000000119', 'processing_error'],
    ] as const) {
      const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
      const methods = await cobro.services.paymentMethods.list({ type: 'CARD', currency: 'USD' });
      const order = await cobro.services.paymentStart.start(pref.id, {
        paymentMethodId: methods[0]?.id ?? null,
        payer: PAYER,
        card: { number: pan, expiry: '12/39', cvc: '123', holderName: 'Ana Lima' },
      });
      assert.equal(order.status, 'REJECTED');
      assert.equal(order.failureCode, code);
    }
  });

  test('an invalid card is refused before anything is written, naming the card fields', async (t) => {
    const { app, merchant, cobro } = await build(t);
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'] });
    const methods = await cobro.services.paymentMethods.list({ type: 'CARD', currency: 'USD' });
    await assert.rejects(
      cobro.services.paymentStart.start(pref.id, {
        paymentMethodId: methods[0]?.id ?? null,
        payer: PAYER,
        card: { number: '4242 4242 4242 4241', expiry: '01/20', cvc: '1', holderName: '' },
      }),
      (error: { code?: string; messages?: string[] }) => {
        assert.equal(error.code, 'WRONG_INPUT');
        const text = (error.messages ?? []).join('\n');
        for (const field of ['card.number', 'card.expiry', 'card.cvc']) {
          assert.ok(text.includes(field), text);
        }
        assert.ok(
          !text.includes('4242424242424241') && !text.includes('4242 4242 4242 4241'),
          'never echoes the number',
        );
        return true;
      },
    );
    const orders = await cobro.database.db
      .selectFrom('payment_orders')
      .select('id')
      .where('merchant_id', '=', merchant.id)
      .execute();
    assert.equal(orders.length, 0);
  });
});
