import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe.ts';
import type { FormLabels } from '../support/browser.ts';
import {
  describeInChromium,
  FORM_LABELS,
  fillCard,
  fillPayer,
  latestOrder,
  pay,
  startCheckout,
  watchPage,
} from '../support/browser.ts';

/**
 * A payer reads the checkout in one language, theirs: the browser's, or the one they pick with
 * the switcher. Every field is found by its label in that language, amounts are written as the
 * payer writes money, and no English is left on a Spanish or Portuguese page.
 */

/** What a payer of `locale` reads as `amount` of `currency`, as their browser's own Intl writes it. */
const money = (locale: string, currency: string, amount: number) =>
  new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);

/** The amount of the checkout's summary, without its "Total" caption. */
async function summaryAmount(page: Page): Promise<string> {
  return page
    .locator('[data-test="amount"]')
    .evaluate((el) => ((el as unknown as { lastChild: { textContent: string } }).lastChild.textContent ?? '').trim());
}

/**
 * Words and names of the English page that have no place on a page in another language: labels,
 * captions, buttons, method names. Matched as whole words, case-sensitively (so "Total", which
 * Portuguese and Spanish write the same, and the merchant's own data stay out of it).
 */
const ENGLISH = [
  'Email',
  'First name',
  'Last name',
  'Phone',
  'Card number',
  'Expiry date',
  'Security code',
  'Name on card',
  'Pay',
  'Card',
  'Bank transfer',
  'Your details',
  'Payment method',
  'Card details',
  'optional',
  'Test mode',
  'Payment to',
  'Pay before',
  'Reference',
  'Copy',
  'Address',
  'Amount',
  'Network',
  'Simulate payment received',
  'Check payment status',
  'Choose another payment method',
  'Waiting for your payment',
  'Language',
  'on',
];

/** The English words the accessibility tree of the page holds (names, roles' text, captions). */
async function englishIn(page: Page): Promise<string[]> {
  // The accessibility tree as assistive technology reads it; link targets are addresses, not words.
  const tree = (await page.locator('body').ariaSnapshot())
    .split('\n')
    .filter((line) => !line.trim().startsWith('- /url:'))
    .join('\n');
  return ENGLISH.filter((word) => new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'u').test(tree));
}

describeInChromium('[CHECKOUT] the payer’s own language in Chromium', (browser) => {
  const cardPayers: {
    language: string;
    locale: string;
    labels: FormLabels;
    currency: string;
    amount: number;
    card: string;
    paid: string;
  }[] = [
    {
      language: 'English',
      locale: 'en-US',
      labels: FORM_LABELS.en,
      currency: 'USD',
      amount: 16.9,
      card: 'Card',
      paid: 'Payment received',
    },
    {
      language: 'Spanish',
      locale: 'es-MX',
      labels: FORM_LABELS.es,
      currency: 'MXN',
      amount: 1234.5,
      card: 'Tarjeta',
      paid: 'Pago recibido',
    },
  ];

  for (const c of cardPayers) {
    test(`[CHECKOUT]: a payer reading ${c.language} finds every field by its own label and pays by card`, async (t) => {
      const env = await startCheckout(t);
      const pref = await env.createPreference({ currency: c.currency, amount: c.amount });
      const page = await (await browser.context(t, { locale: c.locale })).newPage();
      const watch = watchPage(page);
      await page.goto(env.checkoutUrl(pref.id));
      assert.equal(await summaryAmount(page), money(c.locale, c.currency, c.amount));
      await fillPayer(
        page,
        { email: 'ana@example.com', firstName: 'Ana', lastName: 'Souza', phone: '+52 55 1234 5678' },
        c.labels,
      );
      await page.getByRole('radio', { name: c.card, exact: true }).check();
      await fillCard(page, { number: '4242 4242 4242 4242' }, c.labels);
      await pay(page, c.labels);
      await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
      assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), c.paid);
      assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
      assert.deepEqual(watch.errors, []);
    });
  }

  test('[CHECKOUT]: a payer reading Portuguese finds every field by its own label and pays with PIX', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference({ currency: 'BRL', amount: 49.9 });
    const page = await (await browser.context(t, { locale: 'pt-BR' })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
    assert.equal(await summaryAmount(page), money('pt-BR', 'BRL', 49.9));
    const labels = FORM_LABELS.pt;
    await fillPayer(
      page,
      { email: 'ana@example.com', firstName: 'Ana', lastName: 'Souza', phone: '+55 11 98765 4321' },
      labels,
    );
    // The card fields are there in Portuguese too, for a payer who would rather pay by card.
    for (const label of [labels.cardNumber, labels.cardExpiry, labels.cardCvc, labels.cardHolder]) {
      assert.equal(await page.getByLabel(label, { exact: true }).count(), 1, label);
    }
    assert.equal(await page.getByRole('radio', { name: 'Cartão', exact: true }).count(), 1);
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    await pay(page, labels);
    await page.getByLabel('Código PIX copia e cola', { exact: true }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Pague com PIX', exact: true }).count(), 1);
    assert.deepEqual(await englishIn(page), [], 'the PIX panel is in Portuguese');
    await page.getByRole('button', { name: 'Simular pagamento recebido', exact: true }).click();
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Pagamento recebido');
    assert.equal((await latestOrder(env, pref.id)).status, 'CLOSED');
  });

  test('[CHECKOUT]: the Portuguese checkout and payment page hold no English label, name or caption', async (t) => {
    const env = await startCheckout(t);
    // US dollars offer card, bank transfer and crypto: every kind of method name and field.
    const pref = await env.createPreference({ external_id: 'pedido-9' });
    const page = await (await browser.context(t, { locale: 'pt-BR' })).newPage();
    await page.goto(env.checkoutUrl(pref.id));
    // The check itself would find English: the English page, read the same way.
    const english = await (await browser.context(t, { locale: 'en-US' })).newPage();
    await english.goto(env.checkoutUrl(pref.id));
    assert.ok((await englishIn(english)).length > 10, 'the word list matches the English page');

    assert.deepEqual(await englishIn(page), []);
    assert.equal(await page.getByRole('radio', { name: 'Transferência bancária', exact: true }).count(), 1);
    assert.equal(await page.getByRole('radio', { name: 'USDT na Ethereum', exact: true }).count(), 1);
    await fillPayer(page, undefined, FORM_LABELS.pt);
    await page.getByRole('radio', { name: 'USDT na Ethereum', exact: true }).check();
    await pay(page, FORM_LABELS.pt);
    await page.locator('[data-test="crypto-address"]').waitFor();
    assert.deepEqual(await englishIn(page), []);
    // The crypto amount as a Brazilian writes numbers, its code after it.
    assert.match(
      await page.locator('[data-test="panel"]').innerText(),
      /Envie exatamente 16,900000 USDT pela rede Ethereum/,
    );
  });

  test('[CHECKOUT]: amounts read as the payer writes money: reais in Brazil, pesos in Argentina, Mexico and Chile', async (t) => {
    const env = await startCheckout(t);
    const cases = [
      { locale: 'pt-BR', currency: 'BRL', amount: 1234.5 },
      { locale: 'es-AR', currency: 'ARS', amount: 1234.5 },
      { locale: 'es-MX', currency: 'MXN', amount: 1234.5 },
      { locale: 'es-CL', currency: 'CLP', amount: 12345 },
    ];
    for (const c of cases) {
      const pref = await env.createPreference({ currency: c.currency, amount: c.amount });
      const page = await (await browser.context(t, { locale: c.locale })).newPage();
      await page.goto(env.checkoutUrl(pref.id));
      const shown = await summaryAmount(page);
      assert.equal(shown, money(c.locale, c.currency, c.amount), `${c.locale} ${c.currency}`);
      // The browser's own Intl agrees with the server's.
      const browserIntl = await page.evaluate(
        ([locale, currency, amount]) => new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount),
        [c.locale, c.currency, c.amount] as const,
      );
      assert.equal(shown, browserIntl, `${c.locale} ${c.currency} in Chromium`);
    }
  });

  test('[CHECKOUT]: the switcher changes the language without JavaScript, keeps the address, and the choice holds on reload and on the next checkout', async (t) => {
    const env = await startCheckout(t);
    const first = await env.createPreference();
    const second = await env.createPreference();
    const context = await browser.context(t, { locale: 'en-US', javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.checkoutUrl(first.id)}?utm_source=newsletter`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    const switcher = page.getByRole('navigation', { name: 'Language', exact: true });
    assert.equal(
      await switcher.getByRole('link', { name: 'English', exact: true }).getAttribute('aria-current'),
      'true',
    );

    await switcher.getByRole('link', { name: 'Português', exact: true }).click();
    await page.waitForURL(`${env.checkoutUrl(first.id)}?utm_source=newsletter`);
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
    assert.equal(await page.getByLabel('E-mail', { exact: true }).count(), 1);
    const portuguese = page.getByRole('navigation', { name: 'Idioma', exact: true });
    assert.equal(
      await portuguese.getByRole('link', { name: 'Português', exact: true }).getAttribute('aria-current'),
      'true',
    );
    assert.equal(await portuguese.getByRole('link', { name: 'Español', exact: true }).getAttribute('lang'), 'es');

    await page.reload();
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
    const next = await context.newPage();
    await next.goto(env.checkoutUrl(second.id));
    assert.equal(await next.getAttribute('html', 'lang'), 'pt-BR');
    assert.equal(await next.getByRole('button', { name: 'Pagar', exact: true }).count(), 1);

    const [cookie] = (await context.cookies()).filter((c) => c.name === 'cobro_lang');
    assert.equal(cookie?.value, 'pt');
    assert.equal(cookie?.sameSite, 'Lax');
    assert.equal(cookie?.path, '/');
    const year = 365 * 86_400;
    assert.ok(cookie && Math.abs(cookie.expires - (Date.now() / 1000 + year)) < 3600, 'kept for a year');

    // And back: Español, then paying works with the CSRF cookie beside the language one.
    await next.getByRole('link', { name: 'Español', exact: true }).click();
    assert.equal(await next.getAttribute('html', 'lang'), 'es');
    await fillPayer(next, undefined, FORM_LABELS.es);
    await next.getByRole('radio', { name: 'Tarjeta', exact: true }).check();
    // Without JavaScript the card fields come on a card step of their own, in Spanish too.
    await pay(next, FORM_LABELS.es);
    await next.getByRole('heading', { name: 'Datos de la tarjeta', level: 2 }).waitFor();
    await fillCard(next, { number: '4242 4242 4242 4242' }, FORM_LABELS.es);
    await pay(next, FORM_LABELS.es);
    await next.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    assert.equal(await next.getByRole('heading', { level: 1 }).textContent(), 'Pago recibido');
  });

  test('[CHECKOUT]: the checkout and its payment page pass axe-core in English, Spanish and Portuguese, at 1280 and 390 px', async (t) => {
    const env = await startCheckout(t);
    const failures: string[] = [];
    const languages = [
      { locale: 'en-US', labels: FORM_LABELS.en, transfer: 'Bank transfer' },
      { locale: 'es-MX', labels: FORM_LABELS.es, transfer: 'Transferencia bancaria' },
      { locale: 'pt-BR', labels: FORM_LABELS.pt, transfer: 'Transferência bancária' },
    ];
    for (const l of languages) {
      const pref = await env.createPreference({ external_id: 'order-1' });
      // bypassCSP only lets the test inject axe-core; the pages' own CSP is tested elsewhere.
      const page = await (await browser.context(t, { locale: l.locale, bypassCSP: true })).newPage();
      const check = async (what: string) => {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          failures.push(...(await seriousViolations(page)).map((v) => `${l.locale} ${what} @${width}: ${v}`));
        }
      };
      await page.goto(env.checkoutUrl(pref.id));
      await check('form');
      await pay(page, l.labels);
      await page.locator('[data-test="error-summary"]').waitFor();
      await check('form with errors');
      await fillPayer(page, undefined, l.labels);
      await page.getByRole('radio', { name: l.transfer, exact: true }).check();
      await pay(page, l.labels);
      await page.locator('[data-test="bank-details"]').waitFor();
      await check('bank transfer page');
    }
    assert.deepEqual(failures, []);
  });
});
