import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pathOf } from '../../support/dashboard-client.ts';
import { describeBackends } from '../../support/test-app.ts';
import type { RunningCheckout } from '../support/browser.ts';
import { describeInChromium, fillCard, fillPayer, pay, startCheckout, watchPage } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

/**
 * A merchant's subscription business in Chromium: a plan made in the dashboard, bought by a payer
 * through the plan's public link, the subscriber found in the dashboard and cancelled there.
 */

async function api(env: RunningCheckout, method: 'GET' | 'POST', url: string) {
  const res = await env.app.inject({ method, url, headers: env.merchant.authHeaders });
  assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

describeInChromium('[DASHBOARD] subscriptions in Chromium', (browser) => {
  describeBackends('[DASHBOARD] subscriptions', (_build, backend) => {
    test('[DASHBOARD]: a plan made in the dashboard is bought through its public link, and the subscriber is cancelled from its page', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const merchant = await (await browser.context(t)).newPage();
      const watch = watchPage(merchant);
      await signInInBrowser(env, merchant, 'owner');

      // 1. The plan, through the form.
      await merchant.goto(`${env.baseUrl}/dashboard/test/subscriptions`);
      await merchant.getByRole('link', { name: 'New plan' }).click();
      await merchant.getByLabel('Title', { exact: true }).fill('Coffee club');
      await merchant.getByLabel('Amount per period', { exact: true }).fill('12.50');
      await merchant.getByLabel('Currency', { exact: true }).selectOption('USD');
      await merchant.getByLabel('Billed every', { exact: true }).selectOption('MONTH');
      await merchant.getByLabel('Number of periods', { exact: true }).fill('6');
      await merchant.getByRole('button', { name: 'Create plan' }).click();
      await merchant.locator('[data-test="plan-title"]').waitFor();
      assert.equal(await merchant.locator('[data-test="plan-title"]').textContent(), 'Coffee club');
      const planId = /\/payment_links\/([A-Za-z0-9]{22})/.exec(merchant.url())?.[1];
      assert.ok(planId, merchant.url());
      const publicLink = (await merchant.locator('[data-test="public-link"]').getAttribute('href')) ?? '';
      assert.equal(publicLink, `${env.config.publicUrl.replace(/\/$/, '')}/l/${planId}`);
      assert.equal(await merchant.getByRole('img', { name: 'QR code of the link to Coffee club' }).count(), 1);

      // 2. A payer opens the public link in their own browser: a checkout for the plan; pays by card.
      const payerContext = await browser.context(t);
      // The link redirects to the checkout at PUBLIC_URL (http://127.0.0.1:3000 in tests), which is
      // not the port this server listens on: its Location is rewritten to this server, as a
      // reverse proxy in front of the service would (nginx's proxy_redirect).
      const publicOrigin = new URL(env.config.publicUrl).origin;
      await payerContext.route(
        (url) => url.origin === env.baseUrl && url.pathname.startsWith('/l/'),
        async (route) => {
          const response = await route.fetch({ maxRedirects: 0 });
          const headers = response.headers();
          if (headers.location?.startsWith(publicOrigin)) {
            headers.location = `${env.baseUrl}${headers.location.slice(publicOrigin.length)}`;
          }
          await route.fulfill({ response, headers });
        },
      );
      const payer = await payerContext.newPage();
      await payer.goto(`${env.baseUrl}${pathOf(publicLink)}`);
      await payer.waitForURL(new RegExp(`^${env.baseUrl}/checkout/[A-Za-z0-9]{22}`));
      const prefId = /\/checkout\/([A-Za-z0-9]{22})/.exec(payer.url())?.[1];
      const pref = await api(env, 'GET', `/v1/checkout_preferences/${prefId}`);
      assert.deepEqual([pref.type, pref.payment_link_id], ['SUBSCRIPTION', planId]);
      await fillPayer(payer, { email: 'rita@example.com', firstName: 'Rita', lastName: 'Lee' });
      await payer.getByRole('radio', { name: 'Card', exact: true }).check();
      await fillCard(payer, { number: '4242 4242 4242 4242', holder: 'Rita Lee' });
      await pay(payer);
      await payer.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });

      // 3. The subscriber appears in the dashboard, and the plan counts it.
      await merchant.goto(`${env.baseUrl}/dashboard/test/recurrent_payments?plan=${planId}`);
      const row = merchant.locator('[data-test="subscribers"] tbody tr').filter({ hasText: 'Rita Lee' });
      assert.equal(await row.count(), 1);
      assert.equal(await row.locator('[data-test="status"]').textContent(), 'ACTIVE');
      await merchant.goto(`${env.baseUrl}/dashboard/test/payment_links/${planId}`);
      assert.equal(await merchant.locator('[data-test="subscriber-count"]').textContent(), '1');
      assert.equal(await merchant.locator('[data-test="plan-mrr"]').textContent(), '$12.50');

      // 4. Cancelled from its page, after the confirmation page.
      await merchant.goto(`${env.baseUrl}/dashboard/test/recurrent_payments?plan=${planId}`);
      await merchant.getByRole('link', { name: 'Rita Lee' }).click();
      await merchant.locator('[data-test="subscriber-name"]').waitFor();
      const recId = /\/recurrent_payments\/([A-Za-z0-9]{22})/.exec(merchant.url())?.[1];
      assert.ok(recId, merchant.url());
      await merchant.getByRole('button', { name: 'Cancel subscription' }).click();
      await merchant.getByRole('heading', { name: 'Cancel the subscription of Rita Lee?' }).waitFor();
      assert.equal((await api(env, 'GET', `/v1/recurrent_payments/${recId}`)).status, 'ACTIVE');
      await merchant.getByRole('button', { name: 'Cancel subscription' }).click();
      await merchant.locator('[data-test="notice"]').waitFor();
      assert.equal(await merchant.locator('[data-test="status"]').first().textContent(), 'CANCELED');
      const rec = await api(env, 'GET', `/v1/recurrent_payments/${recId}`);
      assert.equal(rec.status, 'CANCELED');
      assert.equal(rec.deleted_by, 'merchant');
      assert.deepEqual(watch.errors, []);
    });
  });
});
