import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { sql } from 'kysely';
import { ManualClock } from '../../src/domain/shared/clock.ts';
import { createPreference } from '../support/builders.ts';
import { getOrder, pay } from '../support/payments.ts';
import { startSmtpInbox } from '../support/smtp-inbox.ts';
import type { BuildOptions, TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

// Every background job is safe with any number of workers: here each job runs in three instances
// of the service on one database at the same moment (three `cobro worker` processes), and every
// piece of work is done once — one status change, one event, one charge, one e-mail. The two
// largest jobs have their own tests of the same kind with a worker stopped part-way: renewals in
// subscriptions.r7.test.ts, webhook delivery in webhooks.reliability.test.ts ("two workers"), and
// all of them with real processes in several-processes.process.test.ts.

const N = 24;
const WORKERS = 3;
const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };

/** Three instances on one database and one clock; the first one's merchant. */
async function workers(
  build: (t: import('node:test').TestContext, options?: BuildOptions) => Promise<TestApp>,
  t: import('node:test').TestContext,
  env: Record<string, string> = {},
): Promise<TestApp[]> {
  const clock = new ManualClock(new Date());
  const first = await build(t, { clock, env });
  const others = await Promise.all(
    Array.from({ length: WORKERS - 1 }, () => build(t, { clock, env, databaseUrl: first.config.databaseUrl })),
  );
  return [first, ...others];
}

/** Runs `job` on every instance at once, twice (a second pass finds nothing left to do). */
async function onEveryWorker(instances: TestApp[], job: (app: TestApp) => Promise<unknown>): Promise<void> {
  for (let pass = 0; pass < 2; pass++) {
    await Promise.all(instances.map((instance) => job(instance)));
  }
}

/** Events of a type per order: exactly one each, or the orders that had another count. */
async function eventCounts(app: TestApp, type: string, ids: string[]): Promise<Map<string, number>> {
  const rows = await app.cobro.database.db
    .selectFrom('events')
    .select(['entity_id', sql<string>`count(*)`.as('n')])
    .where('event_type', '=', type)
    .where('entity_id', 'in', ids)
    .groupBy('entity_id')
    .execute();
  return new Map(rows.map((r) => [r.entity_id, Number(r.n)]));
}

function assertOncePerOrder(counts: Map<string, number>, ids: string[], what: string): void {
  const wrong = ids.filter((id) => counts.get(id) !== 1).map((id) => `${id}: ${counts.get(id) ?? 0}`);
  assert.deepEqual(wrong, [], `${what}: orders without exactly one event`);
}

describeBackends('every job with three workers on one database', (build) => {
  test('expiry: open orders past their time are expired once each, with one EXPIRED event', async (t) => {
    const instances = await workers(build, t);
    const [first] = instances as [TestApp];
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const pref = await createPreference(first.app, first.merchant, {
        currency: 'BRL',
        payment_method_types: ['PIX'],
      });
      const order = await pay(first.app, first.merchant, pref.id, { outcome: 'PENDING' });
      assert.equal(order.json().status, 'OPENED', order.body);
      ids.push(order.json().id);
    }
    first.clock.advance(3 * 86_400_000);
    await onEveryWorker(instances, (w) => w.cobro.orderSweeps.expireDue());
    for (const id of ids) {
      assert.equal((await getOrder(first.app, first.merchant, id)).status, 'EXPIRED');
    }
    assertOncePerOrder(await eventCounts(first, 'PAYMENT_ORDER.EXPIRED', ids), ids, 'expiry');
  });

  test('card sync: pending card payments are settled once each, one charge and one CLOSED event', async (t) => {
    const instances = await workers(build, t);
    const [first] = instances as [TestApp];
    const { cobro, merchant } = first;
    const caller = { ...merchant, merchantId: merchant.id, key: '' };
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const pref = await createPreference(first.app, merchant, { payment_method_types: ['CARD'] });
      const [method] = await cobro.services.orders.eligibleFor(await cobro.services.preferences.get(caller, pref.id));
      const order = await cobro.services.paymentStart.start(pref.id, {
        paymentMethodId: method?.id ?? null,
        payer: PAYER,
        // The test processor's card that stays pending for three seconds, then approves.
        card: { number: '4000 0000 0000 3220', expiry: '12/39', cvc: '123', holderName: 'Ana Lima' },
      });
      assert.equal(order.status, 'OPENED');
      ids.push(order.id);
    }
    first.clock.advance(5_000);
    await onEveryWorker(instances, (w) => w.cobro.orderSweeps.syncPendingCards());
    for (const id of ids) {
      assert.equal((await getOrder(first.app, merchant, id)).status, 'CLOSED');
    }
    assertOncePerOrder(await eventCounts(first, 'PAYMENT_ORDER.CLOSED', ids), ids, 'card sync');
    const charges = await cobro.database.db
      .selectFrom('test_card_charges')
      .select('idempotency_key')
      .where('idempotency_key', 'in', ids)
      .execute();
    assert.equal(charges.length, N, 'one charge per order');
  });

  test('chain watching: confirmed transfers close each crypto order once, with one CLOSED event', async (t) => {
    const instances = await workers(build, t);
    const [first] = instances as [TestApp];
    // One blockchain, seen by every worker.
    const chain = first.cobro.providers.testChain;
    for (const w of instances) {
      w.cobro.providers.chain = chain;
    }
    const ids: string[] = [];
    for (let i = 0; i < N; i++) {
      const pref = await createPreference(first.app, first.merchant, {
        amount: 20,
        payment_method_types: ['CRYPTO_ONCHAIN'],
      });
      const order = (await pay(first.app, first.merchant, pref.id, { outcome: 'PENDING' })).json();
      const ins = order.payment_instructions as { network: string; address: string; required_confirmations: number };
      chain.send(ins.network, ins.address, 20_000_000n, ins.required_confirmations);
      ids.push(order.id);
    }
    await onEveryWorker(instances, (w) => w.cobro.chainObserver.observe('test'));
    for (const id of ids) {
      const order = await getOrder(first.app, first.merchant, id);
      assert.equal(order.status, 'CLOSED');
      assert.equal(order.received_amount, 20);
    }
    assertOncePerOrder(await eventCounts(first, 'PAYMENT_ORDER.CLOSED', ids), ids, 'chain watching');
  });

  test('e-mail: queued mails are sent once each through SMTP', async (t) => {
    const inbox = await startSmtpInbox();
    t.after(() => inbox.close());
    const instances = await workers(build, t, { SMTP_URL: inbox.url, MAIL_FROM: 'Cobro <cobro@example.com>' });
    const [first] = instances as [TestApp];
    const subjects = Array.from({ length: N }, (_, i) => `Receipt ${i + 1}`);
    const now = first.clock.now().getTime();
    await first.cobro.database.uow.transaction(async (repos) => {
      for (const subject of subjects) {
        await repos.emails.insert({
          id: randomUUID(),
          merchantId: first.merchant.id,
          mode: 'test',
          to: 'ana@example.com',
          subject,
          text: 'Thank you.',
          status: 'PENDING',
          attempts: 0,
          lastError: null,
          createdAt: now,
          sentAt: null,
        });
      }
    });
    await onEveryWorker(instances, (w) => w.cobro.runJobs());
    await inbox.waitFor(N);
    assert.deepEqual(inbox.received.map((m) => m.subject).sort(), [...subjects].sort(), 'each mail once');
    const stored = await first.cobro.database.uow.read.emails.listForMerchant(first.merchant.id, 'test', 100);
    assert.deepEqual(
      stored.map((m) => `${m.status}/${m.attempts}`),
      Array(N).fill('SENT/1'),
    );
  });
});
