import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  describeInChromium,
  expectPaidResult,
  FORM_LABELS,
  fillCard,
  fillPayer,
  latestOrder,
  pay,
  startCheckout,
  startSite,
  watchPage,
} from '../support/browser.ts';

describeInChromium('[CHECKOUT] payments in Chromium', (browser) => {
  test('[CHECKOUT]: payer pays by card and sees the result', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ external_id: 'order-1' });
    // A phone-sized screen: the page must fit without sideways scrolling.
    const page = await (await browser.context(t, { viewport: { width: 360, height: 740 } })).newPage();
    const watch = watchPage(page);
    await page.goto(env.checkoutUrl(pref.id));
    const fits = await page.evaluate(() => {
      // Runs in the page; the test's TypeScript has no DOM types, so the two numbers are read by name.
      const g = globalThis as unknown as { innerWidth: number; document: { documentElement: { scrollWidth: number } } };
      return g.document.documentElement.scrollWidth <= g.innerWidth;
    });
    assert.equal(fits, true, 'no sideways scrolling on a 360 px screen');
    await fillPayer(page, {
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'Souza',
      phone: '+55 11 98765 4321',
    });
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await expectPaidResult(page);
    // The result page outlives the payment (history, screenshots): it does not name the card that paid.
    assert.equal(await page.locator('[data-test="result-detail"]').count(), 0);
    assert.doesNotMatch(await page.locator('body').innerText(), /4242/);
    const order = await latestOrder(env, pref.id);
    assert.equal(order.status, 'CLOSED');
    assert.deepEqual(watch.errors, []);
    assert.deepEqual(watch.dialogs, []);
  });

  test('[CHECKOUT]: payer pays with PIX and is redirected with the merchant query string kept', async (t) => {
    const env = await startCheckout(t);
    const shop = await startSite(t);
    const success = `${shop.origin}/thanks?order=42&lang=pt&sig=a%2Fb`;
    const pref = await env.createPreference({
      currency: 'BRL',
      amount: 50,
      custom_urls: { success_payment_redirect: success, error_payment_redirect: `${shop.origin}/failed?order=42` },
    });
    const page = await (await browser.context(t, { locale: 'pt-BR' })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
    await fillPayer(page, undefined, FORM_LABELS.pt);
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    await pay(page, FORM_LABELS.pt);
    const payload = page.locator('[data-test="pix-payload"]');
    await payload.waitFor();
    assert.match((await payload.inputValue()) ?? '', /^000201.*6304[0-9A-F]{4}$/);
    assert.equal(await page.getByRole('img', { name: 'QR code de pagamento' }).isVisible(), true);
    // With JavaScript the copy button appears (it is hidden for script-less browsers).
    assert.equal(await page.getByRole('button', { name: 'Copiar' }).isVisible(), true);
    await page.getByRole('button', { name: 'Simular pagamento recebido', exact: true }).click();
    await page.waitForURL(`${shop.origin}/**`);
    const order = await latestOrder(env, pref.id);
    assert.equal(page.url(), `${success}&checkout_preference_id=${pref.id}&payment_order_id=${order.id}&status=CLOSED`);
    assert.equal(order.status, 'CLOSED');
  });

  test('[CHECKOUT]: payer pays with crypto and the page moves on by itself once the chain confirms', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const page = await (await browser.context(t)).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'USDT on Ethereum', exact: true }).check();
    await pay(page);
    const address = await page.getByLabel('Address', { exact: true }).inputValue();
    const amount = await page.getByLabel('Amount (USDT)', { exact: true }).inputValue();
    assert.match(address, /^0x[0-9a-fA-F]{40}$/);
    assert.equal(amount, '16.900000');
    assert.match((await page.locator('[data-test="crypto-uri"]').getAttribute('href')) ?? '', /^ethereum:0x/);
    // The payer's wallet sends it; the chain watcher job sees enough confirmations; the poller notices.
    env.cobro.providers.testChain.send('ethereum', address, 16_900_000n, 2);
    await env.cobro.runJobs();
    await expectPaidResult(page);
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
  });

  test('[CHECKOUT]: payer pays by bank transfer, confirmed by the test-mode simulate button', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const page = await (await browser.context(t)).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Bank transfer', exact: true }).check();
    // Card fields only matter for cards: hidden as soon as another method is chosen.
    assert.equal(await page.getByLabel('Card number', { exact: true }).isVisible(), false);
    await pay(page);
    await page.locator('[data-test="bank-details"]').waitFor();
    assert.match(await page.getByLabel('Reference', { exact: true }).inputValue(), /\S+/);
    await page.getByRole('button', { name: 'Simulate payment received', exact: true }).click();
    await expectPaidResult(page);
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
  });

  test('[CHECKOUT]: payer pays cash at OXXO with a voucher, confirmed by the simulate button', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ currency: 'MXN', amount: 200 });
    const page = await (await browser.context(t, { locale: 'es-MX' })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    await fillPayer(page, undefined, FORM_LABELS.es);
    await page.getByRole('radio', { name: 'Efectivo (OXXO)', exact: true }).check();
    await pay(page, FORM_LABELS.es);
    await page.locator('[data-test="cash-voucher"]').waitFor();
    assert.match((await page.locator('[data-test="cash-reference"]').textContent()) ?? '', /^\d{16}$/);
    assert.equal(await page.getByRole('img', { name: /^Código de barras \d+$/ }).isVisible(), true);
    // Pesos as a Mexican writes them.
    assert.equal(
      await page.locator('[data-test="cash-amount"]').textContent(),
      new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'MXN' }).format(200),
    );
    await page.getByRole('button', { name: 'Simular pago recibido', exact: true }).click();
    await page.locator('[data-test="result-paid"]').waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Pago recibido');
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
  });

  test('[CHECKOUT]: a declined card, then a successful one', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const page = await (await browser.context(t)).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await fillCard(page, { number: '4000 0000 0000 0002' });
    await pay(page);
    await page.locator('[data-test="result-failed"]').waitFor();
    assert.match((await page.locator('[data-test="result-detail"]').textContent()) ?? '', /declined/);
    assert.equal((await latestOrder(env, pref.id)).status, 'REJECTED');
    await page.getByRole('link', { name: 'Try again' }).click();
    // The payer's details and the method are kept from the first attempt; the card is not.
    assert.equal(await page.getByLabel('Email', { exact: true }).inputValue(), 'ana@example.com');
    assert.equal(await page.getByRole('radio', { name: 'Card', exact: true }).isChecked(), true);
    assert.equal(await page.getByLabel('Card number', { exact: true }).inputValue(), '');
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await expectPaidResult(page);
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
  });

  test('[CHECKOUT]: an expired checkout shows the expired page and cannot be paid', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const page = await (await browser.context(t)).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await fillCard(page, { number: '4242 4242 4242 4242' });
    const advanced = await env.app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: env.merchant.authHeaders,
      payload: { seconds: 16 * 60 },
    });
    assert.equal(advanced.statusCode, 200, advanced.body);
    // Submitting the page that was open before the deadline: refused with the expired page.
    await pay(page);
    await page.locator('[data-test="checkout-expired"]').waitFor();
    await page.goto(env.checkoutUrl(pref.id));
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'This checkout has expired');
    assert.equal(await page.getByRole('button', { name: 'Pay', exact: true }).count(), 0);
    const prefNow = await env.app.inject({
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: env.merchant.authHeaders,
    });
    assert.equal(prefNow.json().status, 'EXPIRED');
    assert.equal(prefNow.json().payment_order_id, null);
  });

  test('[CHECKOUT]: payer pays by card with JavaScript disabled and is redirected with the query kept', async (t) => {
    const env = await startCheckout(t);
    const shop = await startSite(t);
    const success = `${shop.origin}/return?order=42&lang=es&empty=`;
    const pref = await env.createPreference({ custom_urls: { success_payment_redirect: success } });
    const page = await (await browser.context(t, { javaScriptEnabled: false })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    // Without the script the card fields come on a step of their own.
    await pay(page);
    await page.getByRole('heading', { name: 'Card details', level: 2 }).waitFor();
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await page.waitForURL(`${shop.origin}/**`);
    const order = await latestOrder(env, pref.id);
    assert.equal(page.url(), `${success}&checkout_preference_id=${pref.id}&payment_order_id=${order.id}&status=CLOSED`);
    // The merchant's server saw the query exactly as stored, plus ours (its favicon request aside).
    const landed = new URL(page.url());
    assert.equal(shop.requests[0], landed.pathname + landed.search);
  });

  test('[CHECKOUT]: without JavaScript, an async payment is followed with the status link', async (t) => {
    const env = await startCheckout(t);
    const shop = await startSite(t);
    const success = `${shop.origin}/return?order=7`;
    const pref = await env.createPreference({ custom_urls: { success_payment_redirect: success } });
    const page = await (await browser.context(t, { javaScriptEnabled: false })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Bank transfer', exact: true }).check();
    await pay(page);
    await page.locator('[data-test="bank-details"]').waitFor();
    // Copy needs the script: its button stays hidden, the reference stays selectable text.
    assert.equal(await page.locator('[data-test="copy-bank-reference"]').isVisible(), false);
    await page.getByRole('link', { name: 'Check payment status' }).click();
    await page.locator('[data-test="bank-details"]').waitFor();
    const order = await latestOrder(env, pref.id);
    const confirmed = await env.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${order.id}/confirm`,
      headers: env.merchant.authHeaders,
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    await page.getByRole('link', { name: 'Check payment status' }).click();
    await page.waitForURL(`${shop.origin}/**`);
    assert.equal(page.url(), `${success}&checkout_preference_id=${pref.id}&payment_order_id=${order.id}&status=CLOSED`);
  });
});
