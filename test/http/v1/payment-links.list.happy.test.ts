import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import { get, JSON_UTF8 } from '../helpers.ts';

type Page = { data: { id: string; status: string }[]; has_more: boolean; next_cursor: string | null };

describeBackends('GET /v1/payment_links', (build) => {
  test("lists the caller's payment links", async (t) => {
    const shared = await build(t);
    const fresh = async () => ({ ...shared, merchant: await shared.createMerchant() });
    await t.test('answers an empty page when the merchant has no payment links', async () => {
      const { app, merchant } = await fresh();
      const res = await get(app, merchant, '/v1/payment_links');
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], JSON_UTF8);
      assert.deepEqual(res.json(), { data: [], has_more: false, next_cursor: null });
    });

    await t.test('lists full records newest first and walks every link once across pages', async () => {
      const { app, merchant, clock } = await fresh();
      clock.set('2026-01-15T12:00:00Z');
      const created = [];
      for (let i = 0; i < 5; i++) {
        created.push(await createPaymentLink(app, merchant, { title: `Plan ${i}` }));
        clock.advance(1500);
      }
      const all = await get(app, merchant, '/v1/payment_links');
      assert.deepEqual(all.json(), { data: [...created].reverse(), has_more: false, next_cursor: null });

      const seen: string[] = [];
      let cursor: string | null = null;
      const sizes: number[] = [];
      do {
        const res = await get(app, merchant, `/v1/payment_links?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        assert.equal(res.statusCode, 200, res.body);
        const page = res.json() as Page;
        assert.equal(page.has_more, page.next_cursor !== null, res.body);
        sizes.push(page.data.length);
        seen.push(...page.data.map((l) => l.id));
        cursor = page.next_cursor;
      } while (cursor);
      assert.deepEqual(sizes, [2, 2, 1]);
      assert.deepEqual(
        seen,
        [...created].reverse().map((l) => l.id),
      );
    });

    await t.test('walks links created at the same instant once each', async () => {
      const { app, merchant } = await fresh();
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push((await createPaymentLink(app, merchant)).id);
      }
      const first = (await get(app, merchant, '/v1/payment_links?limit=3')).json() as Page;
      assert.equal(first.has_more, true);
      const second = (await get(app, merchant, `/v1/payment_links?limit=3&cursor=${first.next_cursor}`)).json() as Page;
      assert.equal(second.has_more, false);
      assert.deepEqual(
        [...first.data, ...second.data].map((l) => l.id),
        [...ids].sort().reverse(),
      );
    });

    await t.test('filters by status ACTIVE or ARCHIVED', async () => {
      const { app, merchant } = await fresh();
      const active = await createPaymentLink(app, merchant);
      const archived = await createPaymentLink(app, merchant);
      const res = await app.inject({
        method: 'POST',
        url: `/v1/payment_links/${archived.id}/archive`,
        headers: merchant.authHeaders,
      });
      assert.equal(res.statusCode, 200, res.body);
      const ids = async (query: string) =>
        ((await get(app, merchant, `/v1/payment_links${query}`)).json() as Page).data.map((l) => l.id);
      assert.deepEqual(await ids('?status=ACTIVE'), [active.id]);
      assert.deepEqual(await ids('?status=ARCHIVED'), [archived.id]);
      assert.deepEqual((await ids('')).sort(), [active.id, archived.id].sort());
    });
  });
});
