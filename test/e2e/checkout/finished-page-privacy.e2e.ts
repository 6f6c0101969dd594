import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { describeBackends } from '../../support/test-app.ts';
import type { RunningCheckout } from '../support/browser.ts';
import { describeInChromium, fillCard, pay, startCheckout } from '../support/browser.ts';
import { assertNothingOf, PRIVATE_PAYER, testText } from '../support/privacy.ts';

/**
 * A checkout URL outlives the payment: it sits in browser history, e-mails and screenshots. Once
 * the checkout can no longer be paid, its pages show what the merchant's own receipt shows
 * (title, amount, status, the merchant's reference) and nothing about the payer or how they paid.
 * Each page is opened in a fresh browser context: what a stranger holding the link would see.
 */

const TITLE = 'Ceramic teapot';
const EXTERNAL_ID = 'INV-2025-0042';

async function latestOrderId(env: RunningCheckout, prefId: string): Promise<string> {
  const res = await env.app.inject({ url: `/v1/checkout_preferences/${prefId}`, headers: env.merchant.authHeaders });
  const id = (res.json() as { payment_order_id: string | null }).payment_order_id;
  assert.ok(id, res.body);
  return id;
}

/** Title, amount and reference: the receipt every finished page keeps. */
async function assertReceipt(page: Page, what: string): Promise<void> {
  assert.equal(await testText(page, 'title'), TITLE, what);
  assert.match(await testText(page, 'amount'), /\$16\.90$/, what);
  assert.equal(await testText(page, 'external-id'), EXTERNAL_ID, what);
}

/** The JSON the page's script polls: its three members only, nothing about the payer. */
async function assertStatusJson(
  context: BrowserContext,
  url: string,
  status: string,
  traces: readonly string[],
): Promise<void> {
  const res = await context.request.get(url);
  assert.equal(res.status(), 200, await res.text());
  const body = (await res.json()) as Record<string, unknown>;
  assert.deepEqual(Object.keys(body).sort(), ['final', 'redirect_url', 'status'], JSON.stringify(body));
  assert.equal(body.status, status, JSON.stringify(body));
  assert.equal(body.final, true, JSON.stringify(body));
  const raw = (await res.text()).toLowerCase();
  for (const trace of traces) {
    assert.ok(!raw.includes(trace.toLowerCase()), `status JSON holds "${trace}": ${raw}`);
  }
}

describeInChromium('[CHECKOUT] finished pages keep the payer private, in Chromium', (browser) => {
  describeBackends('[CHECKOUT] finished pages', (_build, backend) => {
    test('[CHECKOUT]: a paid checkout shows title, amount, status and reference, and nothing of the payer or the card', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const pref = await env.createPreference({ title: TITLE, external_id: EXTERNAL_ID, payer: PRIVATE_PAYER.wire });

      // 1. The payer pays by card. The merchant gave every payer detail, so the form shows them back.
      const payer = await (await browser.context(t)).newPage();
      await payer.goto(env.checkoutUrl(pref.id));
      assert.match(await testText(payer, 'payer'), /Marisol Quintanilla/, 'an open checkout shows who pays');
      await payer.getByRole('radio', { name: 'Card', exact: true }).check();
      await fillCard(payer, { number: '4242 4242 4242 4242', holder: 'Marisol Quintanilla' });
      await pay(payer);
      await payer.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
      const orderId = await latestOrderId(env, pref.id);
      const traces = [...PRIVATE_PAYER.traces, 'ending in 4242', 'visa'];

      // 2. Someone else opens the checkout link later.
      const stranger = await browser.context(t);
      const page = await stranger.newPage();
      const checkout = await page.goto(env.checkoutUrl(pref.id));
      assert.equal(checkout?.status(), 200);
      await page.locator('[data-test="checkout-paid"]').waitFor();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'This checkout has already been paid');
      await assertReceipt(page, 'paid checkout');
      await assertNothingOf(traces, page, checkout, 'paid checkout');

      // 3. … and the order's own page, where the payer landed after paying.
      const orderUrl = `${env.checkoutUrl(pref.id)}/orders/${orderId}`;
      const result = await page.goto(orderUrl);
      await page.locator('[data-test="result-paid"]').waitFor();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Payment received');
      await assertReceipt(page, 'paid order');
      await assertNothingOf(traces, page, result, 'paid order');

      // 4. The status the page's script polls.
      await assertStatusJson(stranger, `${orderUrl}/status`, 'CLOSED', traces);
    });

    test('[CHECKOUT]: an expired checkout shows title, amount, status and reference, and nothing of the payer or the payment instructions', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const pref = await env.createPreference({ title: TITLE, external_id: EXTERNAL_ID, payer: PRIVATE_PAYER.wire });

      // 1. The payer chooses a bank transfer and gets its instructions, then never pays.
      const payer = await (await browser.context(t)).newPage();
      await payer.goto(env.checkoutUrl(pref.id));
      await payer.getByRole('radio', { name: 'Bank transfer', exact: true }).check();
      await pay(payer);
      await payer.locator('[data-test="bank-details"]').waitFor();
      const bankReference = await payer.getByLabel('Reference', { exact: true }).inputValue();
      assert.match(bankReference, /\S{6,}/);
      const orderId = await latestOrderId(env, pref.id);
      const advanced = await env.app.inject({
        method: 'POST',
        url: '/v1/test_helpers/clock/advance',
        headers: env.merchant.authHeaders,
        payload: { seconds: 16 * 60 },
      });
      assert.equal(advanced.statusCode, 200, advanced.body);
      const traces = [...PRIVATE_PAYER.traces, bankReference];

      // 2. Someone else opens the checkout link after the deadline.
      const stranger = await browser.context(t);
      const page = await stranger.newPage();
      const checkout = await page.goto(env.checkoutUrl(pref.id));
      await page.locator('[data-test="checkout-expired"]').waitFor();
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'This checkout has expired');
      assert.equal(await page.getByRole('button', { name: 'Pay', exact: true }).count(), 0);
      await assertReceipt(page, 'expired checkout');
      await assertNothingOf(traces, page, checkout, 'expired checkout');

      // 3. The order page that held the bank details shows neither them nor the payer.
      const orderUrl = `${env.checkoutUrl(pref.id)}/orders/${orderId}`;
      const result = await page.goto(orderUrl);
      await page.locator('[data-test="result-expired"]').waitFor();
      assert.equal(await page.locator('[data-test="bank-details"]').count(), 0);
      await assertReceipt(page, 'expired order');
      await assertNothingOf(traces, page, result, 'expired order');

      await assertStatusJson(stranger, `${orderUrl}/status`, 'EXPIRED', traces);
    });
  });
});
