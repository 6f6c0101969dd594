import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_CATALOG } from '../../../src/domain/payment-methods/catalog.ts';
import { describeBackends } from '../../support/test-app.ts';

// The catalogue is the same for every merchant of a mode until it changes: a client that kept
// an answer asks with its ETag and gets 304 with no body, and a change gives a new ETag.

describeBackends('GET /v1/payment_methods validators', (build) => {
  test('an answer carries an ETag; asking again with it gets 304 with no body; another query has its own', async (t) => {
    const ctx = await build(t);
    const headers = ctx.merchant.authHeaders;
    const first = await ctx.app.inject({ url: '/v1/payment_methods', headers });
    assert.equal(first.statusCode, 200);
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[A-Za-z0-9_-]{27}"$/);
    assert.equal(first.headers['cache-control'], 'private, no-cache');

    const again = await ctx.app.inject({ url: '/v1/payment_methods', headers: { ...headers, 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal(again.headers.etag, etag);
    for (const tag of [`W/${etag}`, `"other", ${etag}`, '*']) {
      const res = await ctx.app.inject({ url: '/v1/payment_methods', headers: { ...headers, 'if-none-match': tag } });
      assert.equal(res.statusCode, 304, tag);
    }
    const stale = await ctx.app.inject({
      url: '/v1/payment_methods',
      headers: { ...headers, 'if-none-match': '"old"' },
    });
    assert.equal(stale.statusCode, 200);
    assert.equal(stale.body, first.body);

    const cards = await ctx.app.inject({ url: '/v1/payment_methods?type=CARD', headers });
    assert.notEqual(cards.headers.etag, etag);
    assert.ok(cards.json().payment_methods.every((m: { type: string }) => m.type === 'CARD'));
    // Bad input is still refused before anything kept is used.
    const bad = await ctx.app.inject({
      url: '/v1/payment_methods?type=CHEQUE',
      headers: { ...headers, 'if-none-match': etag },
    });
    assert.equal(bad.statusCode, 400);
  });

  test('a change to the catalogue gives a new body and a new ETag', async (t) => {
    const ctx = await build(t);
    const headers = ctx.merchant.authHeaders;
    const before = await ctx.app.inject({ url: '/v1/payment_methods', headers });
    const [first, ...rest] = DEFAULT_CATALOG;
    assert.ok(first);
    await ctx.cobro.services.paymentMethods.installCatalog([{ ...first, max: '1' }, ...rest]);
    const after = await ctx.app.inject({
      url: '/v1/payment_methods',
      headers: { ...headers, 'if-none-match': before.headers.etag as string },
    });
    assert.equal(after.statusCode, 200);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.notEqual(after.body, before.body);
  });
});
