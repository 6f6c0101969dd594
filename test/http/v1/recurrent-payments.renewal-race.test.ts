import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import { advanceClock, pay } from '../../support/payments.ts';
import type { TestApp } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

/**
 * The billing run reads a subscription, opens its renewal, charges the card, then records the
 * payment against the record it read, by compare-and-set. These are the writes that can land in
 * between (the payer saves another card, the merchant cancels) while the processor is answering.
 */

const DAY = 86_400;

async function subscribe(ctx: TestApp): Promise<string> {
  const link = await createPaymentLink(ctx.app, ctx.merchant, {
    amount: 10,
    interval_type: 'MONTH',
    interval_count: 12,
  });
  const pref = await createPreference(ctx.app, ctx.merchant, { type: 'SUBSCRIPTION', payment_link_id: link.id });
  const order = (await pay(ctx.app, ctx.merchant, pref.id)).json();
  assert.equal(order.status, 'CLOSED', JSON.stringify(order));
  return String(order.recurrent_payment_id);
}

/**
 * Runs `meanwhile` while the billing run charges the saved card: before the processor has the
 * request, or after it answered and before the order records the answer.
 */
function whileCharging(ctx: TestApp, when: 'before' | 'after', meanwhile: () => Promise<void>): void {
  const card = ctx.cobro.providers.card;
  const charge = card.chargeToken.bind(card);
  card.chargeToken = async (input) => {
    if (when === 'before') {
      await meanwhile();
      return charge(input);
    }
    const answer = await charge(input);
    await meanwhile();
    return answer;
  };
}

async function cancel(ctx: TestApp, recId: string): Promise<void> {
  const res = await ctx.app.inject({
    method: 'DELETE',
    url: `/v1/recurrent_payments/${recId}`,
    headers: ctx.merchant.authHeaders,
  });
  assert.equal(res.statusCode, 200, res.body);
}

/** Charges the processor approved under the renewal orders' keys (the order id is the key). */
async function approvedRenewalCharges(ctx: TestApp, recId: string): Promise<number> {
  const rows = await ctx.cobro.database.db
    .selectFrom('test_card_charges')
    .innerJoin('payment_orders', 'payment_orders.id', 'test_card_charges.idempotency_key')
    .select('test_card_charges.result')
    .where('payment_orders.recurrent_payment_id', '=', recId)
    .where('payment_orders.period_attempt', 'is not', null)
    .execute();
  return rows.filter((r) => JSON.parse(r.result).status === 'approved').length;
}

/**
 * A month passes (the billing run renews) with `meanwhile` run while the card is charged; then
 * the subscription as the API shows it, and the statuses of all its orders (sorted).
 */
async function renewWhile(
  ctx: TestApp,
  recId: string,
  when: 'before' | 'after',
  meanwhile: () => Promise<void>,
): Promise<{ rec: { status: string; periods_paid: number }; statuses: string[] }> {
  whileCharging(ctx, when, meanwhile);
  await advanceClock(ctx.app, ctx.merchant, 31 * DAY);
  const rec = await ctx.app.inject({ url: `/v1/recurrent_payments/${recId}`, headers: ctx.merchant.authHeaders });
  assert.equal(rec.statusCode, 200, rec.body);
  const orders = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${recId}`,
    headers: ctx.merchant.authHeaders,
  });
  assert.equal(orders.statusCode, 200, orders.body);
  return {
    rec: rec.json(),
    statuses: orders
      .json()
      .data.map((o: { status: string }) => o.status)
      .sort(),
  };
}

describeBackends('a renewal charged while its subscription changes', (build) => {
  test('a card saved again while the renewal is charged: the period is still paid, once', async (t) => {
    const ctx = await build(t);
    const recId = await subscribe(ctx);
    const token = await ctx.cobro.database.db
      .selectFrom('recurrent_payments')
      .select('card_token')
      .where('id', '=', recId)
      .executeTakeFirstOrThrow();
    const { rec, statuses } = await renewWhile(ctx, recId, 'before', async () => {
      await ctx.cobro.services.subscriptions.replaceCard(recId, String(token.card_token), {
        brand: 'VISA',
        last4: '4242',
      });
    });
    assert.equal(rec.status, 'ACTIVE', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 2, 'the renewal paid the second period although the record changed');
    assert.deepEqual(statuses, ['CLOSED', 'CLOSED']);
  });

  test('a subscription cancelled before the processor has the renewal charge: no charge, the renewal REJECTED', async (t) => {
    const ctx = await build(t);
    const recId = await subscribe(ctx);
    const { rec, statuses } = await renewWhile(ctx, recId, 'before', () => cancel(ctx, recId));
    assert.equal(rec.status, 'CANCELED', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 1);
    assert.deepEqual(statuses, ['CLOSED', 'REJECTED']);
    assert.equal(await approvedRenewalCharges(ctx, recId), 0, 'the late charge request was refused');
  });

  test('a subscription cancelled after the processor approved the renewal: the renewal is recorded CLOSED, not EXPIRED', async (t) => {
    const ctx = await build(t);
    const recId = await subscribe(ctx);
    const { rec, statuses } = await renewWhile(ctx, recId, 'after', () => cancel(ctx, recId));
    assert.equal(rec.status, 'CANCELED', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 1);
    // The processor took the money: the order says so (for a refund), rather than EXPIRED.
    assert.deepEqual(statuses, ['CLOSED', 'CLOSED']);
    assert.equal(await approvedRenewalCharges(ctx, recId), 1);
  });
});
