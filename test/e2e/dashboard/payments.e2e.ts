import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { testBackends } from '../../support/test-app.ts';
import { startReceiver } from '../../support/webhook-receiver.ts';
import { describeInChromium, fillCard, fillPayer, pay, startCheckout, watchPage } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

/** What has the keyboard focus: its tag, id and accessible text, read in the page. */
function focused(page: Page): Promise<{ tag: string; id: string; text: string }> {
  return page.evaluate(() => {
    // Runs in the page; the test's TypeScript has no DOM types.
    const g = globalThis as unknown as {
      document: { activeElement: { tagName: string; id: string; textContent: string | null } | null };
    };
    const el = g.document.activeElement;
    return { tag: el?.tagName ?? '', id: el?.id ?? '', text: (el?.textContent ?? '').trim() };
  });
}

/** Presses Tab until `wanted` has the focus (at most `limit` presses); fails the test otherwise. */
async function tabTo(page: Page, wanted: (f: { tag: string; id: string; text: string }) => boolean, what: string) {
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    if (wanted(await focused(page))) {
      return;
    }
  }
  assert.fail(`Tab never reached ${what}`);
}

for (const backend of testBackends()) {
  describeInChromium(`[DASHBOARD] payments in Chromium [${backend}]`, (browser) => {
    test('[DASHBOARD]: create a payment, pay it on its checkout, refund it from its page with the keyboard, see the webhook deliveries', async (t) => {
      const receiver = await startReceiver();
      t.after(() => receiver.close());
      const env = await startCheckout(t, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } }, backend);
      const endpoint = await env.app.inject({
        method: 'POST',
        url: '/v1/webhook_endpoints',
        headers: env.merchant.authHeaders,
        payload: { url: `${receiver.url}/cobro` },
      });
      assert.equal(endpoint.statusCode, 201, endpoint.body);

      // 1. The owner accepts the invitation in the browser and signs in.
      const page = await (await browser.context(t)).newPage();
      const watch = watchPage(page);
      await signInInBrowser(env, page, 'owner');

      // 2. A one-time payment from the form; its page shows the checkout link and a QR code.
      await page.goto(`${env.baseUrl}/dashboard/test/payments`);
      await page.getByRole('link', { name: 'Create a payment', exact: true }).click();
      await page.getByLabel('Title', { exact: true }).fill('Coffee beans, 1 kg');
      await page.getByLabel('Amount', { exact: true }).fill('12.50');
      await page.getByLabel('Currency', { exact: true }).selectOption('USD');
      await page.getByLabel('Expires in', { exact: true }).selectOption({ label: '1 hour' });
      await page.getByLabel('Card', { exact: true }).check();
      await page.getByRole('button', { name: 'Create payment', exact: true }).click();
      await page.locator('[data-test="created"]').waitFor();
      const prefId = /\/checkout_preferences\/([A-Za-z0-9]{22})/.exec(page.url())?.[1];
      assert.ok(prefId, page.url());
      assert.equal(
        await page.getByLabel('Checkout URL', { exact: true }).inputValue(),
        `http://127.0.0.1:3000/checkout/${prefId}`,
        'the link uses PUBLIC_URL',
      );
      assert.equal(await page.locator('[data-test="checkout-qr"] svg').count(), 1);

      // 3. The payer pays it with the approving test card (docs/test-cards.md).
      const payer = await (await browser.context(t)).newPage();
      await payer.goto(env.checkoutUrl(prefId));
      await fillPayer(payer, { email: 'ana@example.com', firstName: 'Ana', lastName: 'Souza' });
      await fillCard(payer, { number: '4242 4242 4242 4242' });
      await pay(payer);
      await payer.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });

      // 4. The order page, from the preference's list of orders.
      await page.reload();
      await page.locator('[data-test="order-row"] a').first().click();
      await page.waitForURL(/\/dashboard\/test\/payment_orders\/[A-Za-z0-9]{22}$/);
      const orderId = /payment_orders\/([A-Za-z0-9]{22})/.exec(page.url())?.[1] ?? '';
      assert.equal(await page.locator('[data-test="payer-name"]').textContent(), 'Ana Souza');
      assert.equal(await page.getByRole('button', { name: 'Refund', exact: true }).count(), 1);

      // 5. Refund with the keyboard only: Tab to "Refund", Enter; Tab to the reason, type; Tab to "Refund", Enter.
      await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Refund', 'the Refund button');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/refund\??$/);
      await tabTo(page, (f) => f.id === 'reason', 'the reason field');
      await page.keyboard.type('Sold out, sorry');
      await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Refund', 'the confirming Refund button');
      await page.keyboard.press('Enter');
      await page.locator('[data-test="notice"]').waitFor();
      assert.equal(await page.locator('[data-test="status"]').first().textContent(), 'REFUNDED');
      const api = await env.app.inject({ url: `/v1/payment_orders/${orderId}`, headers: env.merchant.authHeaders });
      assert.equal((api.json() as { status: string }).status, 'REFUNDED', api.body);

      // 6. The delivery job sends OPENED, CLOSED and REFUNDED; the timeline shows each attempt.
      for (let i = 0; i < 100 && receiver.received.length < 3; i++) {
        await env.cobro.delivery.tick();
        await env.cobro.delivery.idle();
        await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(receiver.received.length, 3, receiver.received.map((r) => r.body).join('\n'));
      await page.reload();
      const events = await page
        .locator('[data-test="event"]')
        .evaluateAll((els) =>
          els.map((el) =>
            (el as unknown as { getAttribute(n: string): string | null }).getAttribute('data-event-type'),
          ),
        );
      assert.deepEqual(events, ['PAYMENT_ORDER.OPENED', 'PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.REFUNDED']);
      const refunded = page.locator('[data-event-type="PAYMENT_ORDER.REFUNDED"] [data-test="delivery-attempt"]');
      assert.equal(await refunded.count(), 1);
      const row = (await refunded.textContent()) ?? '';
      assert.ok(row.includes(`${receiver.url}/cobro`), row);
      assert.equal(await refunded.locator('[data-test="response-code"]').textContent(), '200');
      assert.deepEqual(watch.errors, [], 'no script errors');
    });
  });
}
