import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.ts';
import {
  describeInChromium,
  expectPaidResult,
  fillCard,
  fillPayer,
  latestOrder,
  pay,
  startCheckout,
  watchPage,
} from '../support/browser.ts';

/**
 * The card fields only when Card is chosen: with the payer script they appear in place; without
 * it, choosing Card leads to a card step. No payer ever sees card fields under another method.
 */

const cardNumber = (page: Page) => page.getByLabel('Card number', { exact: true });

/** The id of the element that has the keyboard focus. */
const focusedId = (page: Page) =>
  page.evaluate(
    () =>
      (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement?.id ??
      '',
  );

/** The form posts the page sends, as the browser encoded them. */
function recordPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') {
      posts.push(request.postData() ?? '');
    }
  });
  return posts;
}

describeInChromium('[CHECKOUT] the card step in Chromium', (browser) => {
  test('[CHECKOUT]: with JavaScript the card fields appear only while Card is chosen, take the focus, and pay', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ currency: 'BRL', amount: 50 });
    const page = await (await browser.context(t)).newPage();
    const watch = watchPage(page);
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    assert.equal(await cardNumber(page).isVisible(), false, 'no card field before a method is chosen');
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    assert.equal(await cardNumber(page).isVisible(), false, 'no card field under PIX');

    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    assert.equal(await cardNumber(page).isVisible(), true);
    assert.equal(await focusedId(page), 'card_number', 'the payer is taken to the card number');
    // Required while Card is chosen, and said so to assistive technology.
    const cvc = page.getByLabel('Security code', { exact: true });
    assert.equal(await cvc.evaluate((el) => (el as unknown as { required: boolean }).required), true);
    assert.equal(await cvc.getAttribute('aria-required'), 'true');
    await fillCard(page, { number: '4242 4242 4242 4242' });

    // Another method: the fields go, emptied; back to Card, they come back empty.
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    assert.equal(await cardNumber(page).isVisible(), false);
    assert.equal(
      await page.getByRole('textbox', { name: 'Card number' }).count(),
      0,
      'gone from the accessibility tree',
    );
    assert.equal(await cvc.evaluate((el) => (el as unknown as { required: boolean }).required), false);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    assert.equal(await cardNumber(page).inputValue(), '');
    assert.equal(await cvc.inputValue(), '');

    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await expectPaidResult(page);
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
    assert.deepEqual(watch.errors, []);
  });

  test('[CHECKOUT]: with JavaScript, a card typed then PIX chosen: the card is not sent and PIX pays', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ currency: 'BRL', amount: 50 });
    const page = await (await browser.context(t)).newPage();
    const posts = recordPosts(page);
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await fillCard(page, { number: '4242 4242 4242 4242', cvc: '737' });
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    assert.equal(await cardNumber(page).isVisible(), false);
    await pay(page);
    await page.locator('[data-test="pix-payload"]').waitFor();
    assert.equal(posts.length, 1);
    assert.doesNotMatch(posts[0] ?? '', /card_|4242|737/, 'no card field is posted with PIX');
    await page.getByRole('button', { name: 'Simulate payment received', exact: true }).click();
    await expectPaidResult(page);
    const order = await latestOrder(env, pref.id);
    assert.equal(order.status, 'CLOSED');
  });

  test('[CHECKOUT]: arrowing through the methods keeps the focus in the group; Tab goes on to the card fields', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ currency: 'BRL', amount: 50 });
    const page = await (await browser.context(t)).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    const pix = page.getByRole('radio', { name: 'PIX', exact: true });
    await pix.focus();
    await page.keyboard.press('Space');
    assert.equal(await pix.isChecked(), true);
    assert.equal(await cardNumber(page).isVisible(), false);
    // Card is listed just before PIX: one arrow up checks it.
    await page.keyboard.press('ArrowUp');
    assert.equal(await page.getByRole('radio', { name: 'Card', exact: true }).isChecked(), true);
    assert.equal(await cardNumber(page).isVisible(), true);
    assert.match(await focusedId(page), /^method-/, 'the focus stays on the method choice');
    await page.keyboard.press('Tab');
    assert.equal(await focusedId(page), 'card_number');
  });

  test('[CHECKOUT]: without JavaScript, choosing Card leads to the card step with the details carried, and it pays', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ external_id: 'order-9' });
    const page = await (await browser.context(t, { javaScriptEnabled: false })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    assert.equal(await cardNumber(page).isVisible(), false, 'no card field on the first page');
    assert.equal(await page.getByRole('textbox', { name: 'Card number' }).count(), 0);
    await fillPayer(page, {
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'Souza',
      phone: '+55 11 98765 4321',
    });
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await pay(page);

    await page.getByRole('heading', { name: 'Card details', level: 2 }).waitFor();
    assert.match(await page.title(), /^Card details · /);
    assert.equal(
      await page.locator('[data-test="payer"]').textContent(),
      'Ana Souza · ana@example.com · +55 11 98765 4321',
    );
    assert.equal(await page.locator('[data-test="selected-method"]').textContent(), 'Card');
    assert.equal(await page.getByRole('radio').count(), 0, 'the method is fixed');
    assert.equal(await page.getByLabel('Email', { exact: true }).count(), 0, 'the details are not asked again');
    assert.equal(await page.locator('[data-test="error-summary"]').count(), 0, 'a step, not an error');
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await expectPaidResult(page);
    const order = await latestOrder(env, pref.id);
    assert.equal(order.status, 'CLOSED');
    assert.equal(order.payer.email, 'ana@example.com');
  });

  test('[CHECKOUT]: without JavaScript, the card step leads back to the methods with the details kept', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const page = await (await browser.context(t, { javaScriptEnabled: false })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await pay(page);
    await page.getByRole('heading', { name: 'Card details', level: 2 }).waitFor();
    await cardNumber(page).fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Choose another payment method', exact: true }).click();
    await page.getByRole('radio', { name: 'Bank transfer', exact: true }).waitFor();
    assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), 'ana@example.com');
    assert.equal(await cardNumber(page).isVisible(), false);
    assert.doesNotMatch(await page.content(), /4242/);
    await page.getByRole('radio', { name: 'Bank transfer', exact: true }).check();
    await pay(page);
    await page.locator('[data-test="bank-details"]').waitFor();
    assert.equal((await latestOrder(env, pref.id)).status, 'OPENED');
  });

  test('[CHECKOUT]: without JavaScript, a card-only checkout shows the card fields on its first page', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ payment_method_types: ['CARD'] });
    const page = await (await browser.context(t, { javaScriptEnabled: false })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    assert.equal(await cardNumber(page).isVisible(), true);
    await fillPayer(page);
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await expectPaidResult(page);
  });

  test('[CHECKOUT]: the first page, the card fields shown in place and the card step pass axe-core at 390 and 1280 px', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    // bypassCSP only lets the test inject axe-core; the pages' own CSP is tested elsewhere.
    const context = await browser.context(t, { bypassCSP: true });
    const withScript = await context.newPage();
    // axe needs JavaScript, so the card step is reached as a browser whose payer script did not load reaches it.
    const withoutScript = await context.newPage();
    await withoutScript.route('**/checkout/assets/*.js', (route) => route.abort());
    const failures: string[] = [];
    const check = async (page: Page, what: string) => {
      failures.push(...(await seriousViolations(page)).map((v) => `${what}: ${v}`));
    };
    for (const width of [390, 1280]) {
      await withScript.setViewportSize({ width, height: 900 });
      await withScript.goto(env.checkoutUrl(pref.id));
      await check(withScript, `first page at ${width}`);
      await withScript.getByRole('radio', { name: 'Card', exact: true }).check();
      await cardNumber(withScript).waitFor();
      await check(withScript, `card fields in place at ${width}`);

      await withoutScript.setViewportSize({ width, height: 900 });
      await withoutScript.goto(env.checkoutUrl(pref.id));
      await fillPayer(withoutScript);
      await withoutScript.getByRole('radio', { name: 'Card', exact: true }).check();
      await pay(withoutScript);
      await withoutScript.getByRole('heading', { name: 'Card details', level: 2 }).waitFor();
      await check(withoutScript, `card step at ${width}`);
    }
    assert.deepEqual(failures, []);
  });
});
