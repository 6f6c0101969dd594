import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createPreference } from '../support/builders.ts';
import { pay } from '../support/payments.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

type Real = { app: FastifyInstance; merchant: TestMerchant; ctx: TestApp; preferenceId: string };
type Model = { orders: Map<string, string>; lastOrder: string | null };

const TERMINAL = new Set(['REJECTED', 'EXPIRED', 'REFUNDED']);

/** After every command: the invariants R5 names, read from the database itself. */
async function checkInvariants(real: Real, model: Model): Promise<void> {
  const db = real.ctx.cobro.database.db;
  const orders = await db
    .selectFrom('payment_orders')
    .select(['id', 'status', 'sequence'])
    .where('checkout_preference_id', '=', real.preferenceId)
    .execute();
  const paid = orders.filter((o) => o.status === 'CLOSED' || o.status === 'REFUNDED');
  assert.ok(paid.length <= 1, `more than one CLOSED order: ${orders.map((o) => `${o.id}:${o.status}`).join(', ')}`);
  for (const o of orders) {
    const before = model.orders.get(o.id);
    if (before && TERMINAL.has(before)) {
      assert.equal(o.status, before, `terminal order ${o.id} moved from ${before} to ${o.status}`);
    }
    if (before === 'CLOSED') {
      assert.ok(o.status === 'CLOSED' || o.status === 'REFUNDED');
    }
    const events = await db
      .selectFrom('events')
      .select(['sequence', 'event_type'])
      .where('entity_id', '=', o.id)
      .orderBy('sequence')
      .execute();
    assert.equal(events.length, Number(o.sequence), `order ${o.id}: one event per committed change`);
    for (const [i, e] of events.entries()) {
      assert.equal(Number(e.sequence), i + 1);
    }
    assert.equal(events[events.length - 1]?.event_type, `PAYMENT_ORDER.${o.status}`);
    model.orders.set(o.id, o.status);
  }
  const pref = await db
    .selectFrom('checkout_preferences')
    .select(['status'])
    .where('id', '=', real.preferenceId)
    .executeTakeFirst();
  if (paid.length === 1) {
    assert.equal(pref?.status, 'PAID');
  }
}

class PayCard implements fc.AsyncCommand<Model, Real> {
  constructor(readonly approve: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const res = await pay(real.app, real.merchant, real.preferenceId, {
      payment_method_id: 'eXXZMUAzfgzf1iMulwpitD',
      outcome: this.approve ? 'APPROVED' : 'REJECTED',
    });
    assert.ok([201, 409].includes(res.statusCode), res.body);
    if (res.statusCode === 201) {
      model.lastOrder = res.json().id;
    }
    await checkInvariants(real, model);
  }
  toString = () => `payCard(${this.approve ? 'ok' : 'decline'})`;
}

class PayPush implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly methodId: string,
    readonly name: string,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const res = await pay(real.app, real.merchant, real.preferenceId, {
      payment_method_id: this.methodId,
      outcome: 'PENDING',
    });
    assert.ok([201, 409].includes(res.statusCode), res.body);
    if (res.statusCode === 201) {
      model.lastOrder = res.json().id;
    }
    await checkInvariants(real, model);
  }
  toString = () => `pay${this.name}`;
}

class OrderAction implements fc.AsyncCommand<Model, Real> {
  constructor(readonly action: 'confirm' | 'expire' | 'refund') {}
  check = (m: Readonly<Model>) => m.lastOrder !== null;
  async run(model: Model, real: Real) {
    const id = model.lastOrder ?? '';
    const url =
      this.action === 'refund'
        ? `/v1/payment_orders/${id}/refunds`
        : `/v1/test_helpers/payment_orders/${id}/${this.action}`;
    const res = await real.app.inject({ method: 'POST', url, headers: real.merchant.authHeaders });
    assert.ok([200, 409].includes(res.statusCode), `${this.action}: ${res.body}`);
    await checkInvariants(real, model);
  }
  toString = () => this.action;
}

class AdvanceClock implements fc.AsyncCommand<Model, Real> {
  constructor(readonly minutes: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    real.ctx.clock.advance(this.minutes * 60_000);
    await real.ctx.cobro.runJobs();
    await checkInvariants(real, model);
  }
  toString = () => `advance(${this.minutes}m)`;
}

describeBackends('R5 payment state machine (model-based)', (build) => {
  test('random sequences of payer, provider, merchant and clock actions keep every invariant', async (t) => {
    const ctx = await build(t);
    const { app, merchant, cobro } = ctx;
    const brl = await cobro.services.paymentMethods.list({ currency: 'BRL' });
    const pix = brl.find((m) => m.type === 'PIX')?.id ?? '';
    const usdt = (await cobro.services.paymentMethods.list({ type: 'CRYPTO_ONCHAIN', currency: 'USDT' }))[0]?.id ?? '';
    const cardUsd = (await cobro.services.paymentMethods.list({ type: 'CARD', currency: 'USD' }))[0]?.id ?? '';
    const commands = [
      fc.boolean().map((ok) => new PayCard(ok)),
      fc.constant(new PayPush(usdt, 'Crypto')),
      fc.constantFrom('confirm', 'expire', 'refund').map((a) => new OrderAction(a as 'confirm' | 'expire' | 'refund')),
      fc.integer({ min: 1, max: 20 }).map((m) => new AdvanceClock(m)),
    ];
    assert.ok(pix && usdt && cardUsd);
    const runs = ctx.backend === 'sqlite' ? 300 : 60;
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 25 }), async (cmds) => {
        const pref = await createPreference(app, merchant, {
          amount: 20,
          payment_method_types: ['CARD', 'CRYPTO_ONCHAIN'],
        });
        const real: Real = { app, merchant, ctx, preferenceId: pref.id };
        await fc.asyncModelRun(() => ({ model: { orders: new Map(), lastOrder: null }, real }), cmds);
      }),
      { numRuns: runs, seed: 20261121 },
    );
  });

  test('interleaved concurrent actions on one preference never close two orders', async (t) => {
    const ctx = await build(t);
    const { app, merchant } = ctx;
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), fc.integer({ min: 2, max: 5 }), async (s, n) => {
        const pref = await createPreference(app, merchant, { amount: 20, payment_method_types: ['CARD'] });
        const tasks = Array.from({ length: n }, (_, i) =>
          s
            .schedule(Promise.resolve(i))
            .then(() => pay(app, merchant, pref.id, { outcome: i % 2 === 0 ? 'APPROVED' : 'REJECTED' })),
        );
        await s.waitAll();
        await Promise.all(tasks);
        const closed = await ctx.cobro.database.db
          .selectFrom('payment_orders')
          .select('id')
          .where('checkout_preference_id', '=', pref.id)
          .where('status', '=', 'CLOSED')
          .execute();
        assert.ok(closed.length <= 1);
      }),
      { numRuns: ctx.backend === 'sqlite' ? 200 : 60, seed: 7 },
    );
  });
});
