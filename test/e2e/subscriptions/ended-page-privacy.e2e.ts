import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPaymentLink } from '../../support/builders.ts';
import { describeBackends } from '../../support/test-app.ts';
import type { RunningCheckout } from '../support/browser.ts';
import { describeInChromium, fillCard, pay, startCheckout } from '../support/browser.ts';
import { assertNothingOf, PRIVATE_PAYER, testText } from '../support/privacy.ts';

/**
 * The payer page of a subscription is reached by a signed link in every e-mail about it, and
 * those e-mails are kept, forwarded and screenshotted. Once the subscription is over (canceled,
 * completed, refused, expired) the page says what it was and how it ended, and nothing about
 * the subscriber or their card. Each page is opened in a fresh browser context.
 */

const TITLE = 'Herbal tea club';
const EXTERNAL_ID = 'SUB-7781';

async function api(env: RunningCheckout, method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) {
  const res = await env.app.inject({
    method,
    url,
    headers: env.merchant.authHeaders,
    ...(payload ? { payload } : {}),
  });
  assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The signed payer link, on the server the browser talks to (PUBLIC_URL of the harness is not this server). */
async function payerPage(env: RunningCheckout, recId: string): Promise<string> {
  const link = (await api(env, 'GET', `/v1/test_helpers/recurrent_payments/${recId}/payer_link`)) as { url: string };
  const u = new URL(link.url);
  return `${env.baseUrl}${u.pathname}${u.search}`;
}

async function subscriptionCheckout(env: RunningCheckout, method: 'CARD' | 'PIX'): Promise<{ id: string }> {
  const link = await createPaymentLink(env.app, env.merchant, {
    title: TITLE,
    amount: method === 'PIX' ? 30 : 12,
    currency: method === 'PIX' ? 'BRL' : 'USD',
    interval_type: 'MONTH',
    interval_count: 6,
  });
  return env.createPreference({
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    payment_method_types: [method],
    external_id: EXTERNAL_ID,
    payer: PRIVATE_PAYER.wire,
  });
}

async function recurrentOf(env: RunningCheckout, prefId: string): Promise<string> {
  const orders = await api(env, 'GET', `/v1/payment_orders?checkout_preference_id=${prefId}`);
  const id = orders.data[0]?.recurrent_payment_id;
  assert.ok(typeof id === 'string', JSON.stringify(orders));
  return id;
}

describeInChromium('[SUBSCRIPTIONS] ended payer pages keep the subscriber private, in Chromium', (browser) => {
  describeBackends('[SUBSCRIPTIONS] ended payer pages', (_build, backend) => {
    test('[SUBSCRIPTIONS]: a canceled subscription page shows plan, amount, status and reference, and nothing of the subscriber or the card', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const pref = await subscriptionCheckout(env, 'CARD');

      // 1. Bought by card on the hosted checkout, then canceled by the subscriber on their page.
      const subscriber = await (await browser.context(t)).newPage();
      await subscriber.goto(env.checkoutUrl(pref.id));
      await fillCard(subscriber, { number: '4242 4242 4242 4242', holder: 'Marisol Quintanilla' });
      await pay(subscriber);
      await subscriber.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
      const recId = await recurrentOf(env, pref.id);
      const manage = await payerPage(env, recId);
      await subscriber.goto(manage);
      assert.equal(await testText(subscriber, 'status'), 'Active');
      assert.equal(
        await testText(subscriber, 'payer'),
        PRIVATE_PAYER.wire.email,
        'an active subscription names its subscriber',
      );
      assert.equal(await testText(subscriber, 'method'), 'Visa ending in 4242');
      await subscriber.getByRole('link', { name: 'Cancel subscription' }).click();
      await subscriber.getByRole('button', { name: 'Yes, cancel subscription' }).click();
      await subscriber.locator('[data-test="notice"]').waitFor();
      assert.equal(await testText(subscriber, 'status'), 'Canceled');

      // 2. Someone else opens the link from one of the e-mails.
      const page = await (await browser.context(t)).newPage();
      const response = await page.goto(manage);
      assert.equal(response?.status(), 200);
      await assertNothingOf(
        [...PRIVATE_PAYER.traces, 'ending in 4242', 'visa'],
        page,
        response,
        'canceled subscription',
      );
      assert.equal(await testText(page, 'title'), TITLE);
      assert.equal(await testText(page, 'amount'), '$12.00 every month');
      assert.equal(await testText(page, 'status'), 'Canceled');
      assert.equal(await testText(page, 'external-id'), EXTERNAL_ID);
      assert.equal(await testText(page, 'method'), 'Card');
      assert.equal(await page.locator('[data-test="card-form"]').count(), 0);
      assert.equal(await page.locator('[data-test="cancel-link"]').count(), 0);
    });

    test('[SUBSCRIPTIONS]: an expired subscription page shows plan, amount, status and reference, and nothing of the subscriber or the payment instructions', async (t) => {
      const env = await startCheckout(t, {}, backend);
      const pref = await subscriptionCheckout(env, 'PIX');

      // 1. The subscriber starts a PIX payment and never pays it; the checkout expires.
      const subscriber = await (await browser.context(t)).newPage();
      await subscriber.goto(env.checkoutUrl(pref.id));
      await pay(subscriber);
      const brCode = await subscriber.locator('[data-test="pix-payload"]').inputValue();
      assert.match(brCode, /^000201/);
      const recId = await recurrentOf(env, pref.id);
      await api(env, 'POST', '/v1/test_helpers/clock/advance', { seconds: 16 * 60 });
      const rec = await api(env, 'GET', `/v1/recurrent_payments/${recId}`);
      assert.equal(rec.status, 'EXPIRED', JSON.stringify(rec));

      // 2. Someone else opens the payer link.
      const page = await (await browser.context(t)).newPage();
      const response = await page.goto(await payerPage(env, recId));
      assert.equal(response?.status(), 200);
      await assertNothingOf([...PRIVATE_PAYER.traces, brCode], page, response, 'expired subscription');
      assert.equal(await testText(page, 'title'), TITLE);
      assert.equal(await testText(page, 'amount'), 'R$30.00 every month');
      assert.equal(await testText(page, 'status'), 'Expired before the first payment');
      assert.equal(await testText(page, 'external-id'), EXTERNAL_ID);
      assert.equal(await page.locator('[data-test="pay-now"]').count(), 0);
    });
  });
});
