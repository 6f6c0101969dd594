import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useStripeStandIn } from '../../support/stripe-stand-in.ts';
import { describeBackends } from '../../support/test-app.ts';
import { seriousViolations } from '../support/axe.ts';
import { describeInChromium, startCheckout, watchPage } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

/**
 * Settings → Payment connections in Chromium, against the Stripe stand-in: an owner connects
 * Stripe test keys through the form, sees the account with the key masked, and disconnects;
 * axe-core finds no serious violation on the page empty, with errors, and connected.
 */

const standIns = useStripeStandIn();

describeInChromium('[DASHBOARD] payment connections in Chromium', (browser) => {
  describeBackends('[DASHBOARD] payment connections', (_build, backend) => {
    test('[DASHBOARD]: an owner connects Stripe test keys through the form, sees the account and the key masked, and disconnects; no serious accessibility violation on the way', async (t) => {
      const standIn = standIns();
      const env = await startCheckout(t, { env: { STRIPE_API_URL: standIn.url } }, backend);
      const account = standIn.addAccount({ name: 'Café Aurora' });
      // axe-core is injected into the page, so the context bypasses the page's CSP.
      const page = await (await browser.context(t, { bypassCSP: true })).newPage();
      const watch = watchPage(page);
      await signInInBrowser(env, page, 'owner');
      const failures: string[] = [];
      const audit = async (what: string) =>
        failures.push(...(await seriousViolations(page)).map((v) => `${what}: ${v}`));

      // 1. From the settings index to the page: not connected yet.
      await page.goto(`${env.baseUrl}/dashboard/test/settings`);
      await page.getByRole('link', { name: 'Payment connections' }).click();
      await page.locator('[data-test="not-connected"]').waitFor();
      await audit('not connected');

      // 2. Live keys on the test dashboard: refused beside the field, nothing sent to Stripe.
      const live = standIn.addAccount({ live: true });
      const calls = standIn.requests.length;
      await page.getByLabel('Secret key', { exact: true }).fill(live.secretKey);
      await page.getByLabel('Publishable key', { exact: true }).fill(live.publishableKey);
      await page.getByRole('button', { name: 'Connect Stripe' }).click();
      assert.match(
        (await page.locator('[data-test="error-secret_key"]').textContent()) ?? '',
        /These are live keys, and this is the test dashboard/,
      );
      assert.equal(
        await page.getByLabel('Secret key', { exact: true }).inputValue(),
        '',
        'the secret is not sent back',
      );
      assert.equal(standIn.requests.length, calls);
      await audit('refused keys');

      // 3. The test keys: connected.
      await page.getByLabel('Secret key', { exact: true }).fill(account.secretKey);
      await page.getByLabel('Publishable key', { exact: true }).fill(account.publishableKey);
      await page.getByRole('button', { name: 'Connect Stripe' }).click();
      await page.locator('[data-test="stripe-connection"]').waitFor();
      assert.equal(await page.locator('[data-test="account-id"]').textContent(), account.id);
      assert.equal(
        await page.locator('[data-test="secret-key-masked"]').textContent(),
        `sk_test_…${account.secretKey.slice(-4)}`,
      );
      const webhookUrl = (await page.locator('[data-test="webhook-url"]').textContent()) ?? '';
      assert.ok(
        [...standIn.webhookEndpoints.values()].some((e) => e.url === webhookUrl),
        'the endpoint the page shows was made at Stripe',
      );
      assert.ok(!(await page.content()).includes(account.secretKey), 'the page holds the secret key');
      await audit('connected');

      // 4. Test connection, then disconnect through its confirmation page.
      await page.getByRole('button', { name: 'Test connection' }).click();
      await page.locator('[data-test="check-ok"]').waitFor();
      await page.getByRole('link', { name: 'Disconnect' }).click();
      await page.getByRole('button', { name: 'Disconnect' }).click();
      await page.locator('[data-test="stripe-connect-form"]').waitFor();
      assert.deepEqual(await env.cobro.services.connectors.connections.list(env.merchant.id), []);
      assert.ok(
        ![...standIn.webhookEndpoints.values()].some((e) => e.url === webhookUrl),
        'the endpoint is deleted at Stripe',
      );

      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: 900 });
        await page.goto(`${env.baseUrl}/dashboard/settings/connections`);
        await audit(`live page @${width}`);
      }
      assert.deepEqual(failures, []);
      assert.deepEqual(watch.errors, []);
    });
  });
});
