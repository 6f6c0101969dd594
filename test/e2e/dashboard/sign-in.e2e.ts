import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLI_ACTOR } from '../../../src/domain/dashboard/audit.ts';
import { totpCode } from '../../../src/domain/dashboard/totp.ts';
import { pathOf } from '../../support/dashboard-client.ts';
import { pay } from '../../support/payments.ts';
import { testBackends } from '../../support/test-app.ts';
import { seriousViolations } from '../support/axe.ts';
import { describeInChromium, startCheckout } from '../support/browser.ts';

const PASSWORD = 'correct horse battery staple';
for (const backend of testBackends()) {
  describeInChromium(`dashboard sign-in in Chromium [${backend}]`, (browser) => {
    test('invitation, sign-in with the keyboard alone, two-factor enrolment, then sign-in with a code', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const email = `owner+${env.merchant.id.toLowerCase()}@shop.example`;
      const invitation = await env.cobro.services.dashboard.team.invite(env.merchant.id, email, 'owner', CLI_ACTOR);
      const page = await (await browser.context(t)).newPage();

      await page.goto(`${env.baseUrl}${pathOf(invitation.inviteUrl)}`);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await page.waitForURL(/\/dashboard\/login$/);

      // Keyboard only: the e-mail field, Tab, the password, Enter.
      await page.getByLabel('Email').focus();
      await page.keyboard.type(email);
      await page.keyboard.press('Tab');
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/dashboard$/);
      assert.equal(await page.getByRole('heading', { level: 1 }).first().textContent(), 'Home');

      await page.goto(`${env.baseUrl}/dashboard/settings/security`);
      await page.getByRole('button', { name: 'Set up two-factor authentication' }).click();
      const secret = (await page.locator('[data-test="totp-secret"]').textContent()) ?? '';
      assert.ok(await page.locator('.qr svg').isVisible());
      await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, env.clock.now().getTime()));
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
      assert.equal(await page.locator('[data-test="recovery-codes"] li').count(), 10);

      await page.getByRole('button', { name: 'Sign out' }).first().click({ force: true });
      await page.waitForURL(/\/dashboard\/login$/);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard\/login\/code/);
      env.clock.advance(30_000);
      await page.getByLabel('Code', { exact: true }).fill(totpCode(secret, env.clock.now().getTime()));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/dashboard$/);
      assert.equal(await page.getByRole('link', { name: 'Payments' }).first().isVisible(), true);
    });

    test('every dashboard page has no serious or critical accessibility violation (axe-core), at 1280 and 390 px', async (t) => {
      const env = await startCheckout(t, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } }, backend);
      // Something on every page: a paid order, a plan, a subscriber, an endpoint and its events.
      const pref = await env.createPreference({ title: 'Tea for two', external_id: 'order-1' });
      const paid = await pay(env.app, env.merchant, pref.id);
      assert.equal(paid.statusCode, 201, paid.body);
      const plan = await env.app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: env.merchant.authHeaders,
        payload: { title: 'Gold', amount: 9.99, currency: 'USD', interval_type: 'MONTH', interval_count: 12 },
      });
      assert.equal(plan.statusCode, 201, plan.body);
      const subscription = await env.createPreference({
        type: 'SUBSCRIPTION',
        payment_link_id: plan.json().id,
        payment_method_types: ['CARD'],
      });
      const subscribed = await pay(env.app, env.merchant, subscription.id);
      assert.equal(subscribed.statusCode, 201, subscribed.body);
      const recurrentId = String(subscribed.json().recurrent_payment_id);
      const endpoint = await env.app.inject({
        method: 'POST',
        url: '/v1/webhook_endpoints',
        headers: env.merchant.authHeaders,
        payload: { url: 'http://127.0.0.1:9/hooks', event_types: ['PAYMENT_ORDER.CLOSED'] },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const endpointId = String(endpoint.json().id);
      const events = await env.app.inject({ url: '/v1/events?limit=1', headers: env.merchant.authHeaders });
      const eventId = String(events.json().data[0].id);
      const email = `owner+${env.merchant.id.toLowerCase()}@shop.example`;
      const invitation = await env.cobro.services.dashboard.team.invite(env.merchant.id, email, 'owner', CLI_ACTOR);
      // bypassCSP only lets the test inject axe-core; the pages' own CSP is tested elsewhere.
      const context = await browser.context(t, { bypassCSP: true });
      const page = await context.newPage();
      const failures: string[] = [];
      const check = async (path: string) => {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          const res = await page.goto(`${env.baseUrl}${path}`);
          assert.ok(res && res.status() < 400, `${path}: ${res?.status()}`);
          for (const v of await seriousViolations(page)) {
            failures.push(`${path} @${width}: ${v}`);
          }
        }
      };
      await check(pathOf(invitation.inviteUrl));
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByLabel('Confirm password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create account' }).click();
      await check('/dashboard/login');
      await check('/dashboard/forgot');
      await page.goto(`${env.baseUrl}/dashboard/login`);
      await page.getByLabel('Email').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.waitForURL(/\/dashboard$/);

      const orders = await env.app.inject({
        method: 'GET',
        url: `/v1/payment_orders?checkout_preference_id=${pref.id}`,
        headers: env.merchant.authHeaders,
      });
      const orderId = orders.json().data[0].id as string;
      const pages = [
        '/dashboard/test',
        '/dashboard',
        '/dashboard/test/payments',
        '/dashboard/test/checkout_preferences',
        `/dashboard/test/checkout_preferences/${pref.id}`,
        `/dashboard/test/payment_orders/${orderId}`,
        `/dashboard/test/payment_orders/${orderId}/refund`,
        '/dashboard/test/payments/new',
        '/dashboard/test/subscriptions',
        `/dashboard/test/payment_links/${plan.json().id}`,
        `/dashboard/test/payment_links/${plan.json().id}/edit`,
        '/dashboard/test/payment_links/new',
        '/dashboard/test/recurrent_payments',
        '/dashboard/test/settings',
        '/dashboard/test/settings/security',
        '/dashboard/test/settings/team',
        '/dashboard/test/settings/audit',
        '/dashboard/test/developers',
        '/dashboard/test/developers/keys',
        '/dashboard/test/webhook_endpoints',
        '/dashboard/test/webhook_endpoints/new',
        `/dashboard/test/webhook_endpoints/${endpointId}`,
        `/dashboard/test/webhook_endpoints/${endpointId}/edit`,
        `/dashboard/test/webhook_endpoints/${endpointId}/rotate`,
        `/dashboard/test/webhook_endpoints/${endpointId}/delete`,
        '/dashboard/test/webhook_settings/secret',
        '/dashboard/test/events',
        `/dashboard/test/events/${eventId}`,
        '/dashboard/test/payment_links',
        `/dashboard/test/payment_links/${plan.json().id}/archive`,
        `/dashboard/test/recurrent_payments/${recurrentId}`,
        `/dashboard/test/recurrent_payments/${recurrentId}/cancel`,
        '/dashboard/test/settings/profile',
        '/dashboard/test/settings/payments',
      ];
      // A key's revocation step, reached from the key list as a person would.
      await page.goto(`${env.baseUrl}/dashboard/test/developers/keys`);
      const revokeHref = await page
        .locator('a[href*="/developers/keys/"][href$="/revoke"]')
        .first()
        .getAttribute('href');
      assert.ok(revokeHref, 'the key list links to a revocation step');
      pages.push(revokeHref);
      for (const path of pages) {
        await check(path);
      }
      assert.deepEqual(failures, []);
    });
  });
}
