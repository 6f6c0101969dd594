import assert from 'node:assert/strict';
import { test } from 'node:test';
import { payPixSubscription } from '../support/payments.ts';
import { buildTestApp } from '../support/test-app.ts';

test('the test-mode mailbox page shows the kept renewal e-mails, escaped, behind a signed link', async (t) => {
  const ctx = await buildTestApp(t);
  const { order } = await payPixSubscription(ctx.app, ctx.merchant, { title: 'Revista <b>Mensal</b>' });
  assert.equal(order.json().status, 'CLOSED', order.body);
  await ctx.app.inject({
    method: 'POST',
    url: '/v1/test_helpers/clock/advance',
    headers: ctx.merchant.authHeaders,
    payload: { seconds: 30 * 86_400 },
  });
  await ctx.cobro.runJobs();

  const linkRes = await ctx.app.inject({ url: '/v1/test_helpers/mailbox_link', headers: ctx.merchant.authHeaders });
  assert.equal(linkRes.statusCode, 200, linkRes.body);
  const url = new URL(String(linkRes.json().url));
  const page = await ctx.app.inject({ url: `${url.pathname}${url.search}` });
  assert.equal(page.statusCode, 200, page.body);
  assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/);
  assert.equal(page.headers['cache-control'], 'no-store');
  assert.match(page.body, /data-test="mail"/);
  assert.match(page.body, /Payment due: Revista &lt;b&gt;Mensal&lt;\/b&gt;/);
  assert.ok(!page.body.includes('<b>Mensal</b>'), 'mail text is escaped');
  assert.match(page.body, /000201/, 'the BR Code is shown');

  const forged = await ctx.app.inject({ url: `${url.pathname}?sig=${'A'.repeat(43)}` });
  assert.equal(forged.statusCode, 404, forged.body);
  const other = await ctx.createMerchant();
  const otherLink = await ctx.app.inject({ url: '/v1/test_helpers/mailbox_link', headers: other.authHeaders });
  const otherUrl = new URL(String(otherLink.json().url));
  const mixed = await ctx.app.inject({ url: `${url.pathname}${otherUrl.search}` });
  assert.equal(mixed.statusCode, 404, 'another merchant’s signature opens nothing');

  const live = await ctx.createMerchant('live');
  const refused = await ctx.app.inject({ url: '/v1/test_helpers/mailbox_link', headers: live.authHeaders });
  assert.equal(refused.statusCode, 403, refused.body);
});
