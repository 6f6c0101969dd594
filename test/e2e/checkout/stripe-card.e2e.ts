import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import { CLI_ACTOR } from '../../../src/domain/dashboard/audit.ts';
import { messagesFor } from '../../../src/web/kit/payer-messages.ts';
import type { StripeStandIn } from '../../support/stripe-stand-in.ts';
import { TEST_CONFIRM_PATH, useStripeStandIn } from '../../support/stripe-stand-in.ts';
import type { RunningCheckout, SharedBrowser } from '../support/browser.ts';
import {
  describeInChromium,
  FORM_LABELS,
  fillPayer,
  latestOrder,
  startCheckout,
  startSite,
  watchPage,
} from '../support/browser.ts';

/*
 * The card step of a checkout whose cards go through the merchant's Stripe, in Chromium. The
 * browser never reaches Stripe: https://js.stripe.com/v3/ is answered with a stand-in Stripe.js
 * (below), and what it sends to https://api.stripe.com is passed to the Stripe stand-in's
 * test-only confirm endpoint, which plays what Stripe does when the payer presses Pay (succeed,
 * decline, ask for 3-D Secure). Stripe's own script, its fields and 3-D Secure pages are not
 * what runs here: only Cobro's page, its script and its return page are real.
 */

/**
 * The stand-in Stripe.js: Stripe(pk, { locale }), elements({ clientSecret, appearance }),
 * create('payment').mount(selector) (one text field: what the "card" does, `good`, `decline`
 * or `action`), and confirmPayment({ elements, confirmParams: { return_url } }), which asks the
 * stand-in and then, as Stripe.js does, resolves with the error of a failed try or navigates
 * to return_url with Stripe's query. (The harness's PUBLIC_URL is not the test server's port:
 * the return URL's path is followed on the page's own origin.)
 */
const STAND_IN_STRIPE_JS = `(() => {
  const seen = (window.__stripeStandIn = {});
  const confirm = async (card) => {
    const res = await fetch('https://api.stripe.com${TEST_CONFIRM_PATH}', {
      method: 'POST',
      body: JSON.stringify({ client_secret: seen.clientSecret, card }),
    });
    return res.json();
  };
  window.Stripe = function Stripe(publishableKey, options) {
    seen.publishableKey = publishableKey;
    seen.locale = options && options.locale;
    return {
      elements(options) {
        seen.clientSecret = options.clientSecret;
        seen.appearance = options.appearance;
        return {
          create(type) {
            seen.type = type;
            return {
              mount(selector) {
                const field = document.createElement('input');
                field.id = 'stand-in-card';
                field.setAttribute('aria-label', 'Stand-in card');
                document.querySelector(selector).appendChild(field);
                seen.mounted = selector;
              },
            };
          },
        };
      },
      async confirmPayment({ confirmParams }) {
        let answer = await confirm(document.getElementById('stand-in-card').value || 'good');
        if (answer.status === 'requires_action') {
          // The bank's challenge, passed by the payer.
          answer = await confirm('good');
        }
        if (answer.error) {
          return { error: answer.error };
        }
        const back = new URL(new URL(confirmParams.return_url).pathname, location.origin);
        back.search = new URLSearchParams({
          payment_intent: answer.id,
          payment_intent_client_secret: seen.clientSecret,
          redirect_status: answer.status,
        }).toString();
        location.assign(back.toString());
        return new Promise(() => {});
      },
    };
  };
})();`;

const standIns = useStripeStandIn();

/** A browser context whose js.stripe.com and api.stripe.com are the stand-ins. */
async function stripeContext(browser: SharedBrowser, t: TestContext, standIn: StripeStandIn): Promise<BrowserContext> {
  const context = await browser.context(t);
  await context.route('https://js.stripe.com/**', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript; charset=utf-8', body: STAND_IN_STRIPE_JS }),
  );
  await context.route('https://api.stripe.com/**', async (route) => {
    const path = new URL(route.request().url()).pathname;
    const res = await fetch(`${standIn.url}${path}`, { method: 'POST', body: route.request().postData() ?? '' });
    await route.fulfill({
      status: res.status,
      contentType: 'application/json',
      headers: { 'access-control-allow-origin': '*' },
      body: await res.text(),
    });
  });
  return context;
}

/** A test merchant connected to the Stripe stand-in, and a 25 USD checkout (Card or bank transfer). */
async function connectedCheckout(t: TestContext, standIn: StripeStandIn, body: Record<string, unknown> = {}) {
  const env = await startCheckout(t, { env: { STRIPE_API_URL: standIn.url } });
  const account = standIn.addAccount();
  await env.cobro.services.connectors.connecting.connect(
    env.merchant.id,
    'stripe',
    { secretKey: account.secretKey, publishableKey: account.publishableKey },
    CLI_ACTOR,
  );
  const pref = await env.createPreference({
    amount: 25,
    currency: 'USD',
    payment_method_types: ['CARD', 'BANK_TRANSFER'],
    ...body,
  });
  return { env, account, pref };
}

type Seen = { publishableKey?: string; locale?: string; mounted?: string; appearance?: unknown };
const seenBy = (page: Page) =>
  page.evaluate(() => (globalThis as unknown as { __stripeStandIn: Seen }).__stripeStandIn);

/** Payer details and Card, by plain form: the page that follows is the card step with the Payment Element. */
async function toCardStep(page: Page, env: RunningCheckout, prefId: string, lang: 'en' | 'es' = 'en') {
  await page.goto(`${env.checkoutUrl(prefId)}?lang=${lang}`);
  await fillPayer(page, undefined, FORM_LABELS[lang]);
  await page.getByRole('radio', { name: messagesFor(lang).methodTypeNames.CARD, exact: true }).check();
  await page.getByRole('button', { name: FORM_LABELS[lang].pay, exact: true }).click();
  await page.locator('#stand-in-card').waitFor();
}

async function payWith(page: Page, card: 'good' | 'decline' | 'action', lang: 'en' | 'es' = 'en') {
  await page.locator('#stand-in-card').fill(card);
  await page.getByRole('button', { name: FORM_LABELS[lang].pay, exact: true }).click();
}

describeInChromium('[CHECKOUT] card payments through Stripe’s Payment Element (stand-in Stripe.js)', (browser) => {
  test('[CHECKOUT]: stand-in Stripe.js mounts the Payment Element with the page’s locale; confirm → return page → paid', async (t) => {
    const standIn = standIns();
    const { env, account, pref } = await connectedCheckout(t, standIn);
    const page = await (await stripeContext(browser, t, standIn)).newPage();
    const watch = watchPage(page);
    await toCardStep(page, env, pref.id, 'es');
    const seen = await seenBy(page);
    assert.equal(seen.locale, 'es');
    assert.equal(seen.publishableKey, account.publishableKey);
    assert.equal(seen.mounted, '#payment-element');
    assert.equal((seen.appearance as { theme: string }).theme, 'stripe');
    // No card field of Cobro's own on the way.
    assert.equal(await page.locator('input[name="card_number"]').count(), 0);

    await payWith(page, 'good', 'es');
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), messagesFor('es').resultPaidTitle);
    assert.doesNotMatch(page.url(), /client_secret/, 'the result page is not the address Stripe sent back to');
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
    assert.deepEqual(watch.errors, []);
  });

  test('[CHECKOUT]: stand-in Stripe.js, a checkout with a success URL: paid, the payer lands on the merchant’s page', async (t) => {
    const standIn = standIns();
    const site = await startSite(t);
    const { env, pref } = await connectedCheckout(t, standIn, {
      custom_urls: { success_payment_redirect: `${site.origin}/thanks` },
    });
    const page = await (await stripeContext(browser, t, standIn)).newPage();
    await toCardStep(page, env, pref.id);
    await payWith(page, 'good');
    await page.waitForURL(`${site.origin}/thanks**`);
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
  });

  test('[CHECKOUT]: stand-in Stripe.js, 3-D Secure asked (requires_action), passed: paid', async (t) => {
    const standIn = standIns();
    const { env, account, pref } = await connectedCheckout(t, standIn);
    const page = await (await stripeContext(browser, t, standIn)).newPage();
    await toCardStep(page, env, pref.id);
    await payWith(page, 'action');
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    const order = await latestOrder(env, pref.id);
    assert.equal(order.status, 'CLOSED');
    const [intent] = [...standIn.paymentIntents.values()].filter((i) => i.account === account.id);
    assert.deepEqual(
      standIn.confirmations.filter((c) => c.startsWith(`${intent?.id}:`)),
      [`${intent?.id}:action`, `${intent?.id}:good`],
      'the bank asked, the payer passed, then it succeeded',
    );
  });

  test('[CHECKOUT]: stand-in Stripe.js, a declined card then a good one: the decline shown beside the fields, then paid with the same payment', async (t) => {
    const standIn = standIns();
    const { env, account, pref } = await connectedCheckout(t, standIn);
    const page = await (await stripeContext(browser, t, standIn)).newPage();
    await toCardStep(page, env, pref.id);
    await payWith(page, 'decline');
    const error = page.locator('#stripe-card-error');
    await error.waitFor();
    assert.equal(await error.textContent(), 'Your card has insufficient funds.');
    assert.equal((await latestOrder(env, pref.id)).status, 'OPENED');

    await payWith(page, 'good');
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
    const intents = [...standIn.paymentIntents.values()].filter((intent) => intent.account === account.id);
    assert.equal(intents.length, 1, 'one payment, tried twice');
  });
});
