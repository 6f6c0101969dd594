import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import { createPaymentLink } from '../../support/builders.ts';
import type { TestApp } from '../../support/test-app.ts';
import { buildTestApp } from '../../support/test-app.ts';
import { describeInChromium, fillCard, fillPayer, pay, watchPage } from '../support/browser.ts';

/**
 * A payer subscribes from a plan's public link in Chromium: `/l/{id}` answers 303 to the
 * checkout_url of a new SUBSCRIPTION checkout, which the payer pays by card; the merchant's API
 * then shows the subscription. The redirect goes to PUBLIC_URL, so this server is started on it
 * (the shared harness serves on another address than its PUBLIC_URL).
 */

type Running = TestApp & { baseUrl: string };

/** A free loopback port (asked of the OS, then released for the app to take). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** The service listening on its own PUBLIC_URL, so the link's redirect leads back to it. */
async function startOnPublicUrl(t: TestContext): Promise<Running> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const env = await buildTestApp(t, 'sqlite', { env: { PUBLIC_URL: baseUrl } });
  await env.app.listen({ port, host: '127.0.0.1' });
  return { ...env, baseUrl };
}

async function api(env: Running, url: string) {
  const res = await env.app.inject({ method: 'GET', url, headers: env.merchant.authHeaders });
  assert.equal(res.statusCode, 200, `GET ${url}: ${res.body}`);
  return res.json();
}

describeInChromium('[SUBSCRIPTIONS] plan links in Chromium', (browser) => {
  const cases = [
    { name: 'a plan without trial', trial: {}, status: 'ACTIVE', firstAmount: 9.99 },
    {
      name: 'a plan with a free trial',
      trial: { trial_interval_type: 'DAY', trial_interval_count: 7 },
      status: 'TRIALING',
      firstAmount: 0,
    },
  ] as const;

  for (const c of cases) {
    test(`[SUBSCRIPTIONS]: a payer opens the public link of ${c.name}, pays by card and the API shows the subscription ${c.status}`, async (t) => {
      const env = await startOnPublicUrl(t);
      const plan = await createPaymentLink(env.app, env.merchant, {
        title: 'Gold monthly',
        amount: 9.99,
        currency: 'USD',
        interval_type: 'MONTH',
        interval_count: 12,
        ...c.trial,
      });
      assert.equal(plan.public_url, `${env.baseUrl}/l/${plan.id}`);
      const page = await (await browser.context(t)).newPage();
      const watch = watchPage(page);

      // 1. The public link lands on a test-mode checkout of the plan.
      await page.goto(String(plan.public_url));
      const checkoutUrl = page.url();
      const prefId = new RegExp(`^${env.baseUrl}/checkout/([A-Za-z0-9]{22})$`).exec(checkoutUrl)?.[1];
      assert.ok(prefId, `landed on a checkout: ${checkoutUrl}`);
      assert.equal((await page.locator('[data-test="title"]').textContent())?.trim(), 'Gold monthly');
      assert.ok(await page.locator('[data-test="test-mode-banner"]').isVisible(), 'test-mode banner');

      // 2. Opening the link again in the same browser comes back to the same checkout.
      await page.goto(String(plan.public_url));
      assert.equal(page.url(), checkoutUrl);

      // 3. The payer pays by card (docs/test-cards.md: approved).
      await fillPayer(page);
      await page.getByRole('radio', { name: 'Card', exact: true }).check();
      await fillCard(page, { number: '4242 4242 4242 4242' });
      await pay(page);
      await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });

      // 4. The merchant's API: the checkout came from the plan's link, and the subscription runs.
      const pref = await api(env, `/v1/checkout_preferences/${prefId}`);
      assert.equal(pref.type, 'SUBSCRIPTION');
      assert.equal(pref.origin, 'PAYMENT_LINK');
      assert.equal(pref.payment_link_id, plan.id);
      assert.equal(pref.status, 'PAID', JSON.stringify(pref));
      const orders = await api(env, `/v1/payment_orders?checkout_preference_id=${prefId}`);
      assert.equal(orders.data.length, 1, JSON.stringify(orders));
      assert.equal(orders.data[0].status, 'CLOSED');
      assert.equal(orders.data[0].amount, c.firstAmount);
      const recId = String(orders.data[0].recurrent_payment_id);
      const rec = await api(env, `/v1/recurrent_payments/${recId}`);
      assert.equal(rec.status, c.status, JSON.stringify(rec));
      assert.equal(rec.payment_link_id, plan.id);
      assert.equal(rec.payer.email, 'ana@example.com');
      const listed = await api(env, `/v1/recurrent_payments?payment_link_id=${plan.id}&status=${c.status}`);
      assert.deepEqual(
        listed.data.map((r: { id: string }) => r.id),
        [recId],
      );

      // 5. Only the one checkout was made, and the pages ran without a script or CSP complaint.
      const prefs = await api(env, '/v1/checkout_preferences');
      assert.deepEqual(
        prefs.data.map((p: { id: string }) => p.id),
        [prefId],
      );
      assert.deepEqual(watch.errors, []);
      assert.deepEqual(
        watch.console.filter((line) => /error/i.test(line)),
        [],
      );
    });
  }

  test('[SUBSCRIPTIONS]: the link of an archived plan shows, in Spanish, that the plan is no longer offered', async (t) => {
    const env = await startOnPublicUrl(t);
    const plan = await createPaymentLink(env.app, env.merchant, { title: 'Plan Oro' });
    const archived = await env.app.inject({
      method: 'POST',
      url: `/v1/payment_links/${plan.id}/archive`,
      headers: env.merchant.authHeaders,
    });
    assert.equal(archived.statusCode, 200, archived.body);
    const page = await (await browser.context(t, { locale: 'es-AR' })).newPage();
    const res = await page.goto(String(plan.public_url));
    assert.equal(res?.status(), 410);
    assert.equal((await page.locator('h1').textContent())?.trim(), 'Este plan ya no se ofrece');
    assert.equal((await page.locator('[data-test="plan-title"]').textContent())?.trim(), 'Plan Oro');
  });
});
