import assert from 'node:assert/strict';
import { test } from 'node:test';
import { testBackends } from '../../support/test-app.ts';
import { startReceiver } from '../../support/webhook-receiver.ts';
import { describeInChromium, startCheckout } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

for (const backend of testBackends()) {
  describeInChromium(`dashboard developers in Chromium [${backend}]`, (browser) => {
    test('a developer creates a key that works, revokes it and the API refuses it at once; an endpoint gets a test event, then a redelivery', async (t) => {
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const env = await startCheckout(
        t,
        { env: { WEBHOOK_ALLOWLIST: `127.0.0.1:${new URL(receiver.url).port}` } },
        backend,
      );
      const page = await (await browser.context(t)).newPage();
      await signInInBrowser(env, page, 'developer');

      await page.goto(`${env.baseUrl}/dashboard/test/developers/keys`);
      await page.getByLabel('Name').fill('Point of sale');
      await page.getByRole('button', { name: 'Create key pair' }).click();
      const apiKey = (await page.locator('[data-test="new-api-key"]').textContent()) ?? '';
      const apiSecret = (await page.locator('[data-test="new-api-secret"]').textContent()) ?? '';
      const call = () =>
        fetch(`${env.baseUrl}/v1/currencies`, { headers: { 'x-api-key': apiKey, 'x-api-secret': apiSecret } });
      assert.equal((await call()).status, 200);

      await page.goto(`${env.baseUrl}/dashboard/test/developers/keys`);
      // The row of the key just made (the merchant's own test key is listed too).
      const row = page.locator('tr[data-test="key"]', { hasText: 'Point of sale' });
      await row.locator('[data-test="revoke-key"]').click();
      await page.getByRole('button', { name: 'Revoke key' }).click();
      // The confirmation page's own address also matches /developers/keys: wait for the list
      // that the POST's redirect shows, so the request below is sent after the answer.
      await page
        .locator('tr[data-test="key"]', { hasText: 'Point of sale' })
        .locator('[data-test="revoked"]')
        .waitFor();
      assert.equal((await call()).status, 401, 'refused on the very next request');

      await page.goto(`${env.baseUrl}/dashboard/test/webhook_endpoints/new`);
      await page.getByLabel('URL').fill(`${receiver.url}/cobro`);
      await page.getByRole('button', { name: 'Create endpoint' }).click();
      assert.match((await page.locator('[data-test="shown-secret"]').textContent()) ?? '', /^whsec_/);
      const endpoints = await env.app.inject({
        method: 'GET',
        url: '/v1/webhook_endpoints',
        headers: env.merchant.authHeaders,
      });
      const endpointId = endpoints.json().data[0].id as string;
      await page.goto(`${env.baseUrl}/dashboard/test/webhook_endpoints/${endpointId}`);
      await page.getByRole('button', { name: 'Send test event' }).click();
      await env.cobro.delivery.tick();
      await env.cobro.delivery.idle();
      assert.equal(receiver.received.length, 1);
      const eventId = JSON.parse(receiver.received[0]?.body ?? '{}').id as string | undefined;
      assert.ok(eventId, receiver.received[0]?.body);
      await page.goto(`${env.baseUrl}/dashboard/test/events/${eventId}`);
      await page
        .getByRole('button', { name: /Redeliver/ })
        .first()
        .click();
      await env.cobro.delivery.tick();
      await env.cobro.delivery.idle();
      assert.equal(receiver.received.length, 2);
      assert.equal(receiver.received[1]?.headers['webhook-id'], receiver.received[0]?.headers['webhook-id']);
    });
  });
}
