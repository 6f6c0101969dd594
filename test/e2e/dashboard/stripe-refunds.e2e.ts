import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { Page } from 'playwright-core';
import { paidConnectedCardOrder } from '../../support/stripe-orders.ts';
import type { StripeStandIn } from '../../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../../support/stripe-stand-in.ts';
import { testBackends } from '../../support/test-app.ts';
import { describeInChromium, startCheckout, watchPage } from '../support/browser.ts';
import { signInInBrowser } from '../support/dashboard.ts';

/*
 * Refunding a card payment taken through the merchant's Stripe account from the dashboard, in
 * Chromium, against the Stripe stand-in (not Stripe: it checks every request against Stripe's
 * published contract and keeps the refunds it is asked for).
 */

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
  standIn.refundStatus = 'succeeded';
});

/** The order's page, Refund, a reason, Refund again: the confirmation step as a merchant goes through it. */
async function refundFromPage(page: Page, baseUrl: string, orderId: string, reason: string): Promise<void> {
  await page.goto(`${baseUrl}/dashboard/test/payment_orders/${orderId}`);
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.waitForURL(/\/refund\??$/);
  await page.getByLabel('Reason', { exact: true }).fill(reason);
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.locator('[data-test="notice"]').waitFor();
}

for (const backend of testBackends()) {
  describeInChromium(`[DASHBOARD] refunds through Stripe, with the Stripe stand-in [${backend}]`, (browser) => {
    test('[DASHBOARD]: refund a Stripe-paid card payment from its page (Stripe stand-in); a pending one shows as processing until Stripe reports it done', async (t) => {
      const env = await startCheckout(t, { env: { STRIPE_API_URL: standIn.url } }, backend);
      const page = await (await browser.context(t)).newPage();
      const watch = watchPage(page);
      await signInInBrowser(env, page, 'owner');

      // 1. Refunded at once: the page says so and the order is REFUNDED; Stripe made one refund.
      const paid = await paidConnectedCardOrder(env, standIn);
      await refundFromPage(page, env.baseUrl, paid.order.id, 'Customer returned it');
      assert.equal(await page.locator('[data-test="notice"]').textContent(), 'The payment is refunded.');
      assert.equal(await page.locator('[data-test="status"]').first().textContent(), 'REFUNDED');
      assert.equal(await page.getByRole('button', { name: 'Refund', exact: true }).count(), 0);
      const refunds = [...standIn.refunds.values()].filter((r) => r.payment_intent === paid.intent.id);
      assert.equal(refunds.length, 1);

      // 2. Stripe still processing it: the payment stays paid, the page says why.
      standIn.refundStatus = 'pending';
      const slow = await paidConnectedCardOrder(env, standIn, 40, paid);
      await refundFromPage(page, env.baseUrl, slow.order.id, 'Late delivery');
      assert.match(
        (await page.locator('[data-test="notice"]').textContent()) ?? '',
        /^The refund is asked for: the processor is still processing it/,
      );
      assert.equal(await page.locator('[data-test="status"]').first().textContent(), 'CLOSED');

      // 3. Stripe reports the refund done (its charge.refunded): the page shows it REFUNDED.
      const [pending] = [...standIn.refunds.values()].filter((r) => r.payment_intent === slow.intent.id);
      standIn.settleRefund(String(pending?.id));
      const res = await slow.post(standIn.event(slow.endpoint, 'charge.refunded', standIn.charge(slow.intent.id)));
      assert.equal(res.statusCode, 200, res.body);
      await page.reload();
      assert.equal(await page.locator('[data-test="status"]').first().textContent(), 'REFUNDED');
      const events = await page
        .locator('[data-test="event"]')
        .evaluateAll((els) =>
          els.map((el) =>
            (el as unknown as { getAttribute(n: string): string | null }).getAttribute('data-event-type'),
          ),
        );
      assert.deepEqual(events, ['PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.REFUNDED']);
      assert.deepEqual(watch.errors, [], 'no script errors');
    });
  });
}
