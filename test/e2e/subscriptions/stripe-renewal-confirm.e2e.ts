import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { beforeEach, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { StripeStandIn } from '../../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../../support/stripe-stand-in.ts';
import type { Subscribed } from '../../support/stripe-subscriber.ts';
import { awaitingPayer, offSessionIntents, payFirst, subscribeByCard } from '../../support/stripe-subscriber.ts';
import { describeBackends } from '../../support/test-app.ts';
import { seriousViolations } from '../support/axe.ts';
import type { RunningCheckout } from '../support/browser.ts';
import { describeInChromium, startCheckout, watchPage } from '../support/browser.ts';

/**
 * The page where a subscriber confirms a card renewal their bank wants them for, in Chromium,
 * with a stand-in for Stripe.js served at https://js.stripe.com/v3/ (not Stripe's script): it
 * records what the page asks of Stripe.js and answers as the test says, the Stripe API stand-in
 * playing the bank's decision.
 */

const STRIPE_JS_STAND_IN = `
window.__stripeStandIn = { calls: [], answer: null };
window.Stripe = function (key, options) {
  const record = (method, args) => new Promise((resolve) => {
    window.__stripeStandIn.calls.push({ key, locale: options && options.locale, method, args });
    window.__stripeStandIn.answer = resolve;
  });
  return {
    confirmCardPayment: (secret, data) => record('confirmCardPayment', [secret, data]),
    handleNextAction: (data) => record('handleNextAction', [data]),
  };
};
`;

type StandInCall = { key: string; locale: string; method: string; args: unknown[] };
type StandInWindow = { __stripeStandIn: { calls: StandInCall[]; answer: (value: unknown) => void } };

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
});

describeInChromium(
  '[SUBSCRIPTIONS] confirming a card renewal with the bank, in Chromium (Stripe.js stand-in)',
  (browser) => {
    describeBackends('[SUBSCRIPTIONS] confirming a card renewal', (_build, backend) => {
      /** A subscriber whose renewal waits for them, and the confirmation page open in Chromium. */
      const openConfirmation = async (t: TestContext, options: { bypassCSP?: boolean } = {}) => {
        const env: RunningCheckout = await startCheckout(
          t,
          { env: { STRIPE_API_URL: standIn.url, STRIPE_TIMEOUT_MS: '2000' } },
          backend,
        );
        const s: Subscribed = await subscribeByCard(env, standIn);
        await payFirst(env, standIn, s);
        const { order, path } = await awaitingPayer(env, standIn, s);
        const [intent] = offSessionIntents(standIn, s);
        assert.ok(intent);
        const [connection] = await env.cobro.services.connectors.connections.list(env.merchant.id);
        const context = await browser.context(t, options);
        await context.route('https://js.stripe.com/v3/', (route) =>
          route.fulfill({ status: 200, contentType: 'application/javascript', body: STRIPE_JS_STAND_IN }),
        );
        const page = await context.newPage();
        const watch = watchPage(page);
        await page.goto(`${env.baseUrl}${path}`);
        return { env, s, order, intent, page, watch, publishableKey: connection?.publishableKey };
      };

      /** The payer presses the button; what the page asked of Stripe.js. */
      const confirm = async (page: Page): Promise<StandInCall> => {
        await page.getByRole('button', { name: 'Confirm with my bank' }).click();
        await page.waitForFunction(() => (globalThis as unknown as StandInWindow).__stripeStandIn.calls.length === 1);
        return page.evaluate(() => (globalThis as unknown as StandInWindow).__stripeStandIn.calls[0] as StandInCall);
      };

      /** Stripe.js (the stand-in) resolves as Stripe's would after the bank's window; the page moves on. */
      const answer = async (page: Page, value: unknown) => {
        await Promise.all([
          page.waitForURL(/\/return\?/),
          page.evaluate((v) => (globalThis as unknown as StandInWindow).__stripeStandIn.answer(v), value),
        ]);
      };

      test('[SUBSCRIPTIONS]: the page hands the saved card’s intent to Stripe.js, and after the bank says yes the return page says paid', async (t) => {
        const { env, s, order, intent, page, watch, publishableKey } = await openConfirmation(t);
        const call = await confirm(page);
        assert.equal(call.method, 'confirmCardPayment');
        assert.equal(call.key, publishableKey);
        assert.equal(call.locale, 'en');
        assert.equal(call.args[0], intent.client_secret);
        assert.deepEqual(call.args[1], { payment_method: intent.payment_method });

        standIn.succeed(intent.id);
        await answer(page, { paymentIntent: { id: intent.id, status: 'succeeded' } });
        await page.locator('[data-test="renewal-paid"]').waitFor();
        assert.equal((await env.cobro.database.uow.read.orders.getById(order.id))?.status, 'CLOSED');
        assert.equal((await env.cobro.database.uow.read.recurrentPayments.getById(s.recId))?.periodsPaid, 2);
        assert.deepEqual(watch.errors, []);
        assert.deepEqual(
          watch.console.filter((line) => /Content Security Policy|Refused to/.test(line)),
          [],
          'Stripe.js and the page’s script run under the page’s policy',
        );
      });

      test('[SUBSCRIPTIONS]: when the bank says no, the return page says so and Try again leads back to the confirmation', async (t) => {
        const { order, page, watch } = await openConfirmation(t);
        await confirm(page);
        await answer(page, { error: { type: 'card_error', code: 'payment_intent_authentication_failure' } });
        await page.locator('[data-test="renewal-failed"]').waitFor();
        await page.getByRole('link', { name: 'Try again' }).click();
        await page.getByRole('button', { name: 'Confirm with my bank' }).waitFor();
        assert.match(page.url(), new RegExp(`/renewals/${order.id}\\?sig=`));
        assert.deepEqual(watch.errors, []);
      });

      test('[SUBSCRIPTIONS]: the confirmation and return pages have no serious accessibility problem', async (t) => {
        // bypassCSP only lets the test inject axe-core; the pages' own policy is held by the tests above.
        const { page } = await openConfirmation(t, { bypassCSP: true });
        const failures = (await seriousViolations(page)).map((v) => `confirmation: ${v}`);
        await confirm(page);
        await answer(page, { error: { type: 'card_error', code: 'payment_intent_authentication_failure' } });
        await page.locator('[data-test="renewal-failed"]').waitFor();
        failures.push(...(await seriousViolations(page)).map((v) => `return: ${v}`));
        assert.deepEqual(failures, []);
      });
    });
  },
);
