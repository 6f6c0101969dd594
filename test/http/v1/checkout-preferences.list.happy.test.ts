import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { createPaymentLink, createPreference } from '../../support/builders.ts';
import type { TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';
import { get, JSON_UTF8 } from '../helpers.ts';

type Page = { data: { id: string; [key: string]: unknown }[]; has_more: boolean; next_cursor: string | null };

async function listPage(app: FastifyInstance, merchant: TestMerchant, query: string): Promise<Page> {
  const res = await get(app, merchant, `/v1/checkout_preferences${query}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], JSON_UTF8);
  const page = res.json() as Page;
  assert.deepEqual(Object.keys(page).sort(), ['data', 'has_more', 'next_cursor']);
  return page;
}

/** Follows next_cursor to the end and returns the ids of every page. */
async function allPages(app: FastifyInstance, merchant: TestMerchant, query: string): Promise<string[][]> {
  const pages: string[][] = [];
  let cursor: string | null = null;
  do {
    const sep = query ? '&' : '?';
    const page = await listPage(app, merchant, cursor ? `${query}${sep}cursor=${cursor}` : query);
    pages.push(page.data.map((p) => p.id));
    assert.equal(page.has_more, page.next_cursor !== null, JSON.stringify(page));
    cursor = page.next_cursor;
    assert.ok(pages.length <= 50, 'pagination does not end');
  } while (cursor);
  return pages;
}

describeBackends('GET /v1/checkout_preferences', (build) => {
  test("lists the caller's checkout preferences", async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers an empty page when the merchant has no preferences', async () => {
      const { app, merchant } = await fresh();
      assert.deepEqual(await listPage(app, merchant, ''), { data: [], has_more: false, next_cursor: null });
    });

    await t.test('lists the full records, newest first', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const created = [];
      for (let i = 0; i < 3; i++) {
        created.push(await createPreference(app, merchant, { external_id: `order-${i}` }));
        clock.advance(1000);
      }
      const page = await listPage(app, merchant, '');
      assert.deepEqual(page, { data: [...created].reverse(), has_more: false, next_cursor: null });
    });

    await t.test('walks every preference once across pages with next_cursor', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const ids: string[] = [];
      for (let i = 0; i < 7; i++) {
        ids.push((await createPreference(app, merchant)).id);
        clock.advance(1000);
      }
      const pages = await allPages(app, merchant, '?limit=3');
      assert.deepEqual(
        pages.map((p) => p.length),
        [3, 3, 1],
      );
      assert.deepEqual(pages.flat(), [...ids].reverse());
    });

    await t.test('walks preferences created in the same second once each, ordered by id', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await createPreference(app, merchant)).id);
      }
      const pages = await allPages(app, merchant, '?limit=2');
      assert.deepEqual(
        pages.map((p) => p.length),
        [2, 2, 1],
      );
      assert.deepEqual(pages.flat(), [...ids].sort().reverse());
    });

    await t.test('answers 20 per page by default and up to 100 when asked', async () => {
      const { app, merchant } = await fresh();
      for (let i = 0; i < 21; i++) {
        await createPreference(app, merchant);
      }
      const first = await listPage(app, merchant, '');
      assert.equal(first.data.length, 20);
      assert.equal(first.has_more, true);
      assert.equal(typeof first.next_cursor, 'string');
      const second = await listPage(app, merchant, `?cursor=${first.next_cursor}`);
      assert.equal(second.data.length, 1);
      assert.deepEqual([second.has_more, second.next_cursor], [false, null]);
      const all = await listPage(app, merchant, '?limit=100');
      assert.equal(all.data.length, 21);
      assert.equal(all.has_more, false);
      const one = await listPage(app, merchant, '?limit=1');
      assert.equal(one.data.length, 1);
      assert.equal(one.has_more, true);
      assert.equal(one.data[0]?.id, all.data[0]?.id);
    });

    await t.test('filters by type', async () => {
      const { app, merchant } = await fresh();
      const link = await createPaymentLink(app, merchant);
      const payment = await createPreference(app, merchant);
      const subscription = await createPreference(app, merchant, { type: 'SUBSCRIPTION', payment_link_id: link.id });
      const payments = await listPage(app, merchant, '?type=PAYMENT');
      assert.deepEqual(
        payments.data.map((p) => p.id),
        [payment.id],
      );
      const subscriptions = await listPage(app, merchant, '?type=SUBSCRIPTION');
      assert.deepEqual(
        subscriptions.data.map((p) => p.id),
        [subscription.id],
      );
    });

    await t.test('filters by status, counting a preference past its expiration as EXPIRED', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const soon = await createPreference(app, merchant);
      const later = await createPreference(app, merchant, { expiration_date: '2026-01-16T12:00:00Z' });
      const paidPref = await createPreference(app, merchant, { expiration_date: '2026-01-16T12:00:00Z' });
      const paid = await app.inject({
        method: 'POST',
        url: `/v1/test_helpers/checkout_preferences/${paidPref.id}/pay`,
        headers: merchant.authHeaders,
        payload: {},
      });
      assert.equal(paid.statusCode, 201, paid.body);
      const ids = async (query: string) => (await listPage(app, merchant, query)).data.map((p) => p.id).sort();
      assert.deepEqual(await ids('?status=OPEN'), [soon.id, later.id].sort());
      assert.deepEqual(await ids('?status=EXPIRED'), []);
      assert.deepEqual(await ids('?status=PAID'), [paidPref.id]);
      clock.set('2026-01-15T12:15:00Z');
      assert.deepEqual(await ids('?status=OPEN'), [later.id]);
      assert.deepEqual(await ids('?status=EXPIRED'), [soon.id]);
      const expired = await listPage(app, merchant, '?status=EXPIRED');
      assert.equal(expired.data[0]?.status, 'EXPIRED');
      assert.deepEqual(await ids('?status=PAID'), [paidPref.id]);
    });

    await t.test('filters by exact external_id, verbatim', async () => {
      const { app, merchant } = await fresh();
      const uuid = '3f6c2a1e-9b7d-4c1a-8e2f-5d4b3a2c1b0e';
      const a = await createPreference(app, merchant, { external_id: uuid });
      const b = await createPreference(app, merchant, { external_id: uuid });
      await createPreference(app, merchant, { external_id: `${uuid}-2` });
      await createPreference(app, merchant, { external_id: uuid.toUpperCase() });
      await createPreference(app, merchant);
      const spaced = await createPreference(app, merchant, { external_id: 'pedido nº 42 & más' });
      const found = await listPage(app, merchant, `?external_id=${uuid}`);
      assert.deepEqual(found.data.map((p) => p.id).sort(), [a.id, b.id].sort());
      const encoded = await listPage(app, merchant, `?external_id=${encodeURIComponent('pedido nº 42 & más')}`);
      assert.deepEqual(
        encoded.data.map((p) => p.id),
        [spaced.id],
      );
      assert.deepEqual((await listPage(app, merchant, '?external_id=nothing-like-it')).data, []);
    });

    await t.test('pages through a filtered list with the cursor', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const wanted: string[] = [];
      for (let i = 0; i < 5; i++) {
        wanted.push((await createPreference(app, merchant, { external_id: 'batch-7' })).id);
        await createPreference(app, merchant, { external_id: 'other' });
        clock.advance(1000);
      }
      const pages = await allPages(app, merchant, '?external_id=batch-7&type=PAYMENT&status=OPEN&limit=2');
      assert.deepEqual(pages.flat(), [...wanted].reverse());
    });

    await t.test('works when the GET carries Content-Type: application/json and no body', async () => {
      const { app, merchant } = await fresh();
      await createPreference(app, merchant);
      const res = await app.inject({
        method: 'GET',
        url: '/v1/checkout_preferences',
        headers: { ...merchant.authHeaders, 'content-type': 'application/json' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().data.length, 1);
    });
  });
});
