import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CardPaymentProvider } from '../../src/domain/payment-methods/payment-provider.ts';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import { getOrder, pay } from '../support/payments.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

// A card pay whose process dies mid-call leaves an OPENED order with no processor reference. The
// process is simulated here by a charge that never answers (the request hangs, as it would in a
// process that is gone); the card sync of the same service (any process's) then settles it by
// asking the processor, whose records are the outside world's and survive the caller.

type Cut = { release: () => void; settled: Promise<unknown> };

/** Makes the next card charge hang, the processor call made `when` the hang begins or ends. */
function cutNextCharge(cobro: TestApp['cobro'], when: 'charged first' | 'charged late'): Cut {
  const card = cobro.providers.card;
  let release = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let settled: Promise<unknown> = Promise.resolve();
  const cutting: CardPaymentProvider = Object.create(card);
  cutting.charge = async (input) => {
    cobro.providers.card = card;
    if (when === 'charged first') {
      settled = card.charge(input);
      await settled;
      await gate;
    } else {
      await gate;
      settled = card.charge(input);
      await settled;
    }
    // The answer never arrives: the caller is gone.
    throw new Error('connection lost');
  };
  cobro.providers.card = cutting;
  return { release, settled: gate.then(() => settled) };
}

async function cardOrdersOf(ctx: TestApp, preferenceId: string) {
  return ctx.cobro.database.db
    .selectFrom('payment_orders')
    .select(['id', 'status', 'provider_ref', 'failure_code'])
    .where('checkout_preference_id', '=', preferenceId)
    .orderBy('created_at')
    .execute();
}

/** The preference's one order, once the hanging pay has opened it. */
async function openedOrder(ctx: TestApp, preferenceId: string) {
  for (let i = 0; i < 500; i++) {
    const [order] = await cardOrdersOf(ctx, preferenceId);
    if (order) {
      return order;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error('the order was never opened');
}

async function eventsOf(ctx: TestApp, orderId: string): Promise<string[]> {
  const rows = await ctx.cobro.database.db
    .selectFrom('events')
    .select('event_type')
    .where('entity_id', '=', orderId)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => r.event_type);
}

describeBackends('card charges cut by a crash', (build) => {
  test('a charge the processor made before its caller died is found by its key: the order closes, once, with its webhook', async (t) => {
    const ctx = await build(t);
    const { app, merchant, cobro, clock } = ctx;
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'], amount: 12.5 });
    const cut = cutNextCharge(cobro, 'charged first');
    const hanging = pay(app, merchant, pref.id);
    const order = await openedOrder(ctx, pref.id);
    assert.equal(order.status, 'OPENED');
    assert.equal(order.provider_ref, null, 'the answer (and its reference) never came back');

    // Within the card lock the call may still be running somewhere: nothing is decided.
    await cobro.orderSweeps.syncPendingCards();
    assert.equal((await getOrder(app, merchant, order.id)).status, 'OPENED');

    clock.advance(61_000);
    await cobro.orderSweeps.syncPendingCards();
    const settled = await getOrder(app, merchant, order.id);
    assert.equal(settled.status, 'CLOSED');
    const preference = await app.inject({
      method: 'GET',
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(preference.json().status, 'PAID');
    assert.deepEqual(await eventsOf(ctx, order.id), ['PAYMENT_ORDER.OPENED', 'PAYMENT_ORDER.CLOSED']);

    // The dead caller's late answer changes nothing, and the card was charged once.
    cut.release();
    await hanging;
    assert.equal((await getOrder(app, merchant, order.id)).status, 'CLOSED');
    const charges = await cobro.providers.testProcessor.listCharges();
    assert.equal(charges.filter((c) => c.status === 'approved' && c.amountMinor === 1250n).length, 1);
  });

  test('a charge that never reached the processor is canceled there: the order is rejected, the checkout paid again, and a late call under the old key charges nothing', async (t) => {
    const ctx = await build(t);
    const { app, merchant, cobro, clock } = ctx;
    const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'], amount: 7.25 });
    const cut = cutNextCharge(cobro, 'charged late');
    const hanging = pay(app, merchant, pref.id);
    const order = await openedOrder(ctx, pref.id);

    // While the charge may be in progress, a second pay is refused (no double charge).
    const meanwhile = await pay(app, merchant, pref.id);
    assert.equal(meanwhile.statusCode, 409, meanwhile.body);

    clock.advance(61_000);
    await cobro.orderSweeps.syncPendingCards();
    const voided = await getOrder(app, merchant, order.id);
    assert.equal(voided.status, 'REJECTED');
    const [row] = await cardOrdersOf(ctx, pref.id);
    assert.equal(row?.failure_code, 'canceled');

    // The payer tries again: a new order, charged once.
    const again = await pay(app, merchant, pref.id);
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().status, 'CLOSED');

    // The dead caller's call finally reaches the processor under the old key: refused.
    cut.release();
    await hanging;
    await cut.settled.catch(() => undefined);
    const approved = (await cobro.providers.testProcessor.listCharges()).filter(
      (c) => c.status === 'approved' && c.amountMinor === 725n,
    );
    assert.equal(approved.length, 1, 'one charge: the second order');
    assert.equal((await getOrder(app, merchant, order.id)).status, 'REJECTED');
  });

  test('a card saved for a subscription can still be charged after the service restarts', async (t) => {
    const first = await build(t);
    const link = await createPaymentLink(first.app, first.merchant, {
      title: 'Daily paper',
      amount: 3,
      interval_type: 'DAY',
      interval_count: 12,
    });
    const pref = await createPreference(first.app, first.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD'],
    });
    const paid = await pay(first.app, first.merchant, pref.id);
    assert.equal(paid.statusCode, 201, paid.body);
    const saved = await first.cobro.database.db
      .selectFrom('recurrent_payments')
      .select(['id'])
      .where('checkout_preference_id', '=', pref.id)
      .executeTakeFirstOrThrow();
    await first.cobro.close();

    // A new process on the same database: the processor's record of the card is still there.
    const restarted = await build(t, { clock: first.clock, databaseUrl: first.config.databaseUrl });
    restarted.clock.advance(86_400_000 + 3_600_000);
    await restarted.cobro.billing.runBilling();
    const renewals = await restarted.cobro.database.db
      .selectFrom('payment_orders')
      .select(['status', 'failure_code'])
      .where('recurrent_payment_id', '=', saved.id)
      .where('period_attempt', 'is not', null)
      .execute();
    assert.ok(renewals.length >= 1, 'a renewal was charged');
    assert.ok(
      renewals.every((r) => r.status === 'CLOSED'),
      JSON.stringify(renewals),
    );
  });
});
