import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import type { TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { createPreferenceRequest, get, UNKNOWN_ID } from './helpers.ts';

/** R15: one merchant can neither read, change nor list another merchant's objects. */

type Endpoint = { name: string; call: (id: string) => Promise<LightMyRequestResponse> };

/** Every endpoint that takes an object id in its path, as merchant `as`. */
function idEndpoints(app: FastifyInstance, as: TestMerchant): Endpoint[] {
  const send = (method: 'GET' | 'POST', url: string) =>
    app.inject({ method, url, headers: as.authHeaders, ...(method === 'POST' ? { payload: {} } : {}) });
  return [
    { name: 'GET preference', call: (id) => send('GET', `/v1/checkout_preferences/${id}`) },
    { name: 'GET payment link', call: (id) => send('GET', `/v1/payment_links/${id}`) },
    { name: 'POST archive', call: (id) => send('POST', `/v1/payment_links/${id}/archive`) },
    { name: 'POST edit payment link', call: (id) => send('POST', `/v1/payment_links/${id}`) },
    { name: 'GET payer link', call: (id) => send('GET', `/v1/test_helpers/recurrent_payments/${id}/payer_link`) },
    { name: 'GET payment order', call: (id) => send('GET', `/v1/payment_orders/${id}`) },
    { name: 'POST refund', call: (id) => send('POST', `/v1/payment_orders/${id}/refunds`) },
    { name: 'POST confirm', call: (id) => send('POST', `/v1/payment_orders/${id}/confirm`) },
    { name: 'POST test pay', call: (id) => send('POST', `/v1/test_helpers/checkout_preferences/${id}/pay`) },
    { name: 'POST test confirm', call: (id) => send('POST', `/v1/test_helpers/payment_orders/${id}/confirm`) },
    { name: 'POST test expire', call: (id) => send('POST', `/v1/test_helpers/payment_orders/${id}/expire`) },
  ];
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomId = () => Array.from({ length: 22 }, () => ALPHABET[randomInt(62)]).join('');

/** Everything merchant `m` owns: one of each object kind. */
async function seed(app: FastifyInstance, m: TestMerchant, tag: string) {
  const link = await createPaymentLink(app, m, { title: `Plan ${tag}`, external_id: `link-${tag}` });
  const payment = await createPreference(app, m, { external_id: `pay-${tag}` });
  const subscription = await createPreference(app, m, {
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    external_id: `sub-${tag}`,
  });
  const paid = await createPreference(app, m, { external_id: `paid-${tag}` });
  const order = await app.inject({
    method: 'POST',
    url: `/v1/test_helpers/checkout_preferences/${paid.id}/pay`,
    headers: m.authHeaders,
    payload: {},
  });
  assert.equal(order.statusCode, 201, order.body);
  return { link, payment, subscription, paid, orderId: String(order.json().id) };
}

describeBackends('tenant isolation (R15)', (build) => {
  test("keeps each merchant's objects to that merchant", async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test(
      "answers every id-taking endpoint called with another merchant's ids exactly as for an unknown id",
      async () => {
        const { app, merchant: a, createMerchant } = await fresh();
        const b = await createMerchant();
        await seed(app, a, 'a');
        const theirs = await seed(app, b, 'b');
        const before = {
          link: (await get(app, b, `/v1/payment_links/${theirs.link.id}`)).body,
          payment: (await get(app, b, `/v1/checkout_preferences/${theirs.payment.id}`)).body,
          paid: (await get(app, b, `/v1/checkout_preferences/${theirs.paid.id}`)).body,
          order: (await get(app, b, `/v1/payment_orders/${theirs.orderId}`)).body,
        };
        const foreignIds = [theirs.link.id, theirs.payment.id, theirs.subscription.id, theirs.paid.id, theirs.orderId];
        let pairs = 0;
        for (const endpoint of idEndpoints(app, a)) {
          const unknown = await endpoint.call(UNKNOWN_ID);
          assert.equal(unknown.statusCode, 404, `${endpoint.name}: ${unknown.body}`);
          for (const id of foreignIds) {
            const res = await endpoint.call(id);
            assert.equal(res.statusCode, 404, `${endpoint.name} ${id}: ${res.body}`);
            assert.equal(res.body, unknown.body, `${endpoint.name} ${id}`);
            assert.equal(res.headers['content-type'], unknown.headers['content-type']);
            assert.equal(res.headers['content-length'], unknown.headers['content-length']);
            pairs++;
          }
        }
        assert.equal(pairs, 55);
        // Nothing of B's changed: not archived, not refunded, not paid.
        assert.equal((await get(app, b, `/v1/payment_links/${theirs.link.id}`)).body, before.link);
        assert.equal((await get(app, b, `/v1/checkout_preferences/${theirs.payment.id}`)).body, before.payment);
        assert.equal((await get(app, b, `/v1/checkout_preferences/${theirs.paid.id}`)).body, before.paid);
        assert.equal((await get(app, b, `/v1/payment_orders/${theirs.orderId}`)).body, before.order);
      },
    );

    await t.test('answers 404 to 1,000 random well-formed ids, spread over every GET by id', async () => {
      const { app, merchant: a, createMerchant } = await fresh();
      await seed(app, a, 'a');
      await seed(app, await createMerchant(), 'b');
      const endpoints = idEndpoints(app, a).filter((e) => e.name.startsWith('GET'));
      const ids = Array.from({ length: 1000 }, randomId);
      assert.equal(new Set(ids).size, 1000);
      let hits = 0;
      for (let i = 0; i < ids.length; i += 50) {
        const batch = ids.slice(i, i + 50);
        const answers = await Promise.all(
          batch.map((id, j) => {
            const endpoint = endpoints[(i + j) % endpoints.length];
            assert.ok(endpoint);
            return endpoint.call(id);
          }),
        );
        for (const res of answers) {
          if (res.statusCode !== 404) {
            hits++;
            assert.fail(`random id answered ${res.statusCode}: ${res.body}`);
          }
        }
      }
      assert.equal(hits, 0);
    });

    await t.test(
      "answers 400 to a SUBSCRIPTION preference with another merchant's payment_link_id, as for an unknown one",
      async () => {
        const { app, merchant: a, createMerchant } = await fresh();
        const b = await createMerchant();
        const theirLink = await createPaymentLink(app, b);
        const body = (id: string) => ({ type: 'SUBSCRIPTION', origin: 'API', payment_link_id: id });
        const foreign = await createPreferenceRequest(app, a, body(theirLink.id));
        const unknown = await createPreferenceRequest(app, a, body(UNKNOWN_ID));
        assert.equal(foreign.statusCode, 400, foreign.body);
        assert.equal(foreign.body, unknown.body);
        assert.deepEqual(foreign.json(), {
          code: 'WRONG_INPUT',
          messages: [
            'payment_link_id must be the id of an active subscription definition (payment link) of this account',
          ],
        });
      },
    );

    await t.test(
      'ignores owner, status, id and timestamps sent in a create body, and the amount of a SUBSCRIPTION',
      async () => {
        const { app, merchant: a, createMerchant, clock } = await fresh();
        clock.set('2026-01-15T12:00:00Z');
        const b = await createMerchant();
        const theirs = await seed(app, b, 'b');
        const theirPreference = (await get(app, b, `/v1/checkout_preferences/${theirs.payment.id}`)).body;
        const forged = {
          merchant_id: b.id,
          user_id: b.id,
          status: 'PAID',
          id: theirs.payment.id,
          created_at: '2020-01-01T00:00:00Z',
          updated_at: '2020-01-01T00:00:00Z',
          checkout_url: 'https://evil.example/checkout',
          payment_order_id: theirs.orderId,
          origin: 'API',
          origin_id: 'forged',
          mode: 'live',
        };
        const payment = await createPreferenceRequest(app, a, {
          type: 'PAYMENT',
          amount: 10,
          currency: 'USD',
          title: 'Mine',
          payment_link_id: theirs.link.id,
          ...forged,
        });
        assert.equal(payment.statusCode, 201, payment.body);
        const myLink = await createPaymentLink(app, a, { amount: 7.5, currency: 'USD', title: 'My plan' });
        const subscription = await createPreferenceRequest(app, a, {
          type: 'SUBSCRIPTION',
          payment_link_id: myLink.id,
          amount: 0.5,
          currency: 'CLP',
          title: 'Cheaper',
          ...forged,
        });
        assert.equal(subscription.statusCode, 201, subscription.body);
        for (const res of [payment, subscription]) {
          const body = res.json();
          assert.notEqual(body.id, theirs.payment.id);
          assert.match(body.id, /^[A-Za-z0-9]{22}$/);
          assert.equal(body.user_id, a.id);
          assert.equal(body.status, 'OPEN');
          assert.equal(body.created_at, '2026-01-15T12:00:00Z');
          assert.equal(body.updated_at, '2026-01-15T12:00:00Z');
          assert.equal(body.checkout_url, `http://127.0.0.1:3000/checkout/${body.id}`);
          assert.equal(body.payment_order_id, null);
          assert.equal(body.origin_id, null);
          assert.deepEqual((await get(app, a, `/v1/checkout_preferences/${body.id}`)).json(), body);
          const forB = await get(app, b, `/v1/checkout_preferences/${body.id}`);
          assert.equal(forB.statusCode, 404, forB.body);
        }
        assert.equal(payment.json().payment_link_id, null);
        assert.deepEqual(
          [subscription.json().amount, subscription.json().currency, subscription.json().title],
          [7.5, 'USD', 'My plan'],
        );
        // B's preference with the id A sent is untouched.
        assert.equal((await get(app, b, `/v1/checkout_preferences/${theirs.payment.id}`)).body, theirPreference);
      },
    );

    await t.test("never lists another merchant's objects, whatever the filter", async () => {
      const { app, merchant: a, createMerchant } = await fresh();
      const b = await createMerchant();
      const mine = await seed(app, a, 'a');
      const theirs = await seed(app, b, 'b');
      const ids = async (url: string) => ((await get(app, a, url)).json().data as { id: string }[]).map((o) => o.id);
      assert.deepEqual(
        (await ids('/v1/checkout_preferences?limit=100')).sort(),
        [mine.payment.id, mine.subscription.id, mine.paid.id].sort(),
      );
      assert.deepEqual(await ids('/v1/checkout_preferences?type=SUBSCRIPTION'), [mine.subscription.id]);
      assert.deepEqual(await ids('/v1/checkout_preferences?status=PAID'), [mine.paid.id]);
      assert.deepEqual(await ids('/v1/checkout_preferences?external_id=pay-b'), []);
      assert.deepEqual(await ids('/v1/checkout_preferences?external_id=pay-a'), [mine.payment.id]);
      assert.deepEqual(await ids('/v1/payment_links'), [mine.link.id]);
      assert.deepEqual(await ids('/v1/payment_orders'), [mine.orderId]);
      assert.deepEqual(await ids(`/v1/payment_orders?checkout_preference_id=${theirs.paid.id}`), []);
      // The cursor of B's last page does not open B's list to A.
      const theirPage = (await get(app, b, '/v1/checkout_preferences?limit=1')).json();
      assert.equal(typeof theirPage.next_cursor, 'string');
      const withTheirCursor = await get(app, a, `/v1/checkout_preferences?cursor=${theirPage.next_cursor}`);
      assert.equal(withTheirCursor.statusCode, 200, withTheirCursor.body);
      for (const p of withTheirCursor.json().data as { user_id: string }[]) {
        assert.equal(p.user_id, a.id);
      }
    });
  });
});
