import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Page } from 'playwright-core';
import { createPaymentLink } from '../../support/builders.ts';
import { pay as payByTestHelper } from '../../support/payments.ts';
import { startSmtpInbox } from '../../support/smtp-inbox.ts';
import { seriousViolations } from '../support/axe.ts';
import type { RunningCheckout } from '../support/browser.ts';
import {
  describeInChromium,
  FORM_LABELS,
  fillCard,
  fillPayer,
  pay,
  startCheckout,
  watchPage,
} from '../support/browser.ts';

/**
 * A subscriber's whole life in Chromium: bought on the hosted checkout, renewed as the merchant's
 * test clock moves, managed on the payer page the e-mails link to. Card: a trial, renewals, one
 * failed renewal recovered by changing the card, completion. PIX: the renewal notice arrives at a
 * real SMTP server and is paid from the page it links to.
 */

type Recurrent = {
  id: string;
  status: string;
  periods_paid: number;
  next_payment_date: string | null;
  payment_method_id: string;
};

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

const recurrent = (env: RunningCheckout, id: string): Promise<Recurrent> =>
  api(env, 'GET', `/v1/recurrent_payments/${id}`);

/** Moves the merchant's test clock to `iso` (plus a minute), running what falls due, as the test helper does. */
async function advanceTo(env: RunningCheckout, iso: string | null): Promise<void> {
  assert.ok(iso, 'a date to move to');
  const { now } = (await api(env, 'POST', '/v1/test_helpers/clock/advance', { seconds: 1 })) as { now: string };
  const seconds = Math.ceil((Date.parse(iso) - Date.parse(now)) / 1000) + 60;
  if (seconds > 0) {
    await api(env, 'POST', '/v1/test_helpers/clock/advance', { seconds });
  }
}

/** The same URL on the server the browser talks to (PUBLIC_URL of the harness is not this server). */
function onServer(env: RunningCheckout, url: string): string {
  const u = new URL(url);
  return `${env.baseUrl}${u.pathname}${u.search}`;
}

async function payerPage(env: RunningCheckout, recId: string): Promise<string> {
  const link = (await api(env, 'GET', `/v1/test_helpers/recurrent_payments/${recId}/payer_link`)) as { url: string };
  return onServer(env, link.url);
}

async function text(page: Page, name: string): Promise<string> {
  return ((await page.locator(`[data-test="${name}"]`).textContent()) ?? '').trim();
}

async function saveCard(page: Page, number: string): Promise<void> {
  await fillCard(page, { number });
  await page.getByRole('button', { name: 'Save card', exact: true }).click();
  await page.locator('[data-test="notice"]').waitFor();
  assert.equal(await text(page, 'notice'), 'Your new card is saved. The next payment will be charged to it.');
}

describeInChromium('[SUBSCRIPTIONS] in Chromium', (browser) => {
  test('[SUBSCRIPTIONS]: a card subscription with a trial renews, fails once, recovers with a new card and completes', async (t) => {
    const env = await startCheckout(t);
    const link = await createPaymentLink(env.app, env.merchant, {
      title: 'Streaming Plus',
      amount: 15,
      currency: 'USD',
      interval_type: 'MONTH',
      interval_count: 3,
      trial_interval_type: 'DAY',
      trial_interval_count: 7,
    });
    const pref = await env.createPreference({
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD'],
    });
    const page = await (await browser.context(t)).newPage();
    const watch = watchPage(page);

    // 1. Bought on the hosted checkout: the trial starts, the card is kept by the processor, nothing is charged.
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await fillCard(page, { number: '4242 4242 4242 4242' });
    await pay(page);
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    const firstOrder = await api(env, 'GET', `/v1/payment_orders?checkout_preference_id=${pref.id}`);
    const recId = String(firstOrder.data[0].recurrent_payment_id);
    assert.equal(firstOrder.data[0].amount, 0, 'a trial without sign-up fee charges nothing');
    let rec = await recurrent(env, recId);
    assert.equal(rec.status, 'TRIALING');

    // 2. The trial ends: the first period is charged to the saved card.
    await advanceTo(env, rec.next_payment_date);
    rec = await recurrent(env, recId);
    assert.equal(rec.status, 'ACTIVE', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 1);

    // 3. On the payer page the subscriber swaps in a card whose charges are declined.
    const manage = await payerPage(env, recId);
    await page.goto(manage);
    assert.equal(await text(page, 'status'), 'Active');
    assert.equal(await text(page, 'periods-paid'), '1 of 3');
    assert.equal(await text(page, 'method'), 'Visa ending in 4242');
    assert.equal(await text(page, 'amount'), '$15.00 every month');
    await saveCard(page, '4000 0000 0000 0341');
    assert.equal(await text(page, 'method'), 'Visa ending in 0341');

    // 4. The renewal is declined: UNPAID, with a retry scheduled.
    await advanceTo(env, rec.next_payment_date);
    rec = await recurrent(env, recId);
    assert.equal(rec.status, 'UNPAID', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 1);
    await page.goto(manage);
    assert.equal(await text(page, 'status'), 'Payment failed');

    // 5. Before the retry the subscriber puts the good card back; the retry charges it: ACTIVE again.
    await saveCard(page, '4242 4242 4242 4242');
    assert.equal(await text(page, 'method'), 'Visa ending in 4242');
    await advanceTo(env, rec.next_payment_date);
    rec = await recurrent(env, recId);
    assert.equal(rec.status, 'ACTIVE', JSON.stringify(rec));
    assert.equal(rec.periods_paid, 2);

    // 6. The last period renews, and at its end the subscription is COMPLETE.
    await advanceTo(env, rec.next_payment_date);
    rec = await recurrent(env, recId);
    assert.equal(rec.periods_paid, 3, JSON.stringify(rec));
    assert.equal(rec.status, 'ACTIVE', 'active until the end of the last paid period');
    await advanceTo(env, rec.next_payment_date);
    rec = await recurrent(env, recId);
    assert.equal(rec.status, 'COMPLETE', JSON.stringify(rec));
    await page.goto(manage);
    assert.equal(await text(page, 'status'), 'Completed: every period is paid');
    assert.equal(await text(page, 'periods-paid'), '3 of 3');
    assert.equal(await page.getByRole('button', { name: 'Save card' }).count(), 0);
    assert.equal(await page.getByRole('link', { name: 'Cancel subscription' }).count(), 0);

    const orders = await api(env, 'GET', `/v1/payment_orders?recurrent_payment_id=${recId}&limit=100`);
    const outcomes = (orders.data as { status: string; amount: number }[]).map((o) => `${o.status}:${o.amount}`);
    assert.deepEqual(outcomes.sort(), ['CLOSED:0', 'CLOSED:15', 'CLOSED:15', 'CLOSED:15', 'REJECTED:15']);
    const events = await api(env, 'GET', `/v1/events?entity_id=${recId}&limit=100`);
    const types = (events.data as { event_type: string; sequence: number }[])
      .sort((a, b) => a.sequence - b.sequence)
      .map((e) => e.event_type.replace('RECURRENT_PAYMENT.', ''));
    assert.deepEqual(types, ['PENDING', 'TRIALING', 'ACTIVE', 'UNPAID', 'ACTIVE', 'COMPLETE']);
    assert.deepEqual(watch.errors, []);
  });

  test('[SUBSCRIPTIONS]: the payer page, its cancel step and a plan link page pass axe-core in English, Spanish and Portuguese; a Portuguese payer changes the card in Portuguese', async (t) => {
    const env = await startCheckout(t);
    const link = await createPaymentLink(env.app, env.merchant, {
      title: 'Clube do café',
      amount: 15,
      currency: 'USD',
    });
    const pref = await env.createPreference({
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['CARD'],
    });
    const paid = await payByTestHelper(env.app, env.merchant, pref.id);
    assert.equal(paid.json().status, 'CLOSED', paid.body);
    const manage = await payerPage(env, String(paid.json().recurrent_payment_id));
    const failures: string[] = [];
    for (const locale of ['en-US', 'es-MX', 'pt-BR']) {
      // bypassCSP only lets the test inject axe-core; the pages' own CSP is tested elsewhere.
      const page = await (await browser.context(t, { locale, bypassCSP: true })).newPage();
      const check = async (what: string) => {
        for (const width of [1280, 390]) {
          await page.setViewportSize({ width, height: 900 });
          failures.push(...(await seriousViolations(page)).map((v) => `${locale} ${what} @${width}: ${v}`));
        }
      };
      await page.goto(manage);
      await check('subscription page');
      await page.locator('[data-test="cancel-link"]').click();
      await page.locator('[data-test="cancel-confirm"]').waitFor();
      await check('cancel confirmation');
      await page.goto(`${env.baseUrl}/l/AAAAAAAAAAAAAAAAAAAAAA`);
      await check('plan link not found');
    }
    assert.deepEqual(failures, []);

    const page = await (await browser.context(t, { locale: 'pt-BR' })).newPage();
    await page.goto(manage);
    assert.equal(await page.getAttribute('html', 'lang'), 'pt-BR');
    assert.equal(
      await text(page, 'amount'),
      `${new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'USD' }).format(15)} por mês`,
    );
    await fillCard(page, { number: '4000 0000 0000 0341' }, FORM_LABELS.pt);
    await page.getByRole('button', { name: 'Salvar cartão', exact: true }).click();
    await page.locator('[data-test="notice"]').waitFor();
    assert.equal(await text(page, 'notice'), 'Seu novo cartão foi salvo. O próximo pagamento será cobrado nele.');
    assert.equal(await text(page, 'method'), 'Visa final 0341');
  });

  test('[SUBSCRIPTIONS]: a PIX renewal e-mail arrives at the SMTP server and is paid from the page it links to', async (t) => {
    const inbox = await startSmtpInbox();
    t.after(() => inbox.close());
    const env = await startCheckout(t, { env: { SMTP_URL: inbox.url } });
    const link = await createPaymentLink(env.app, env.merchant, {
      title: 'Revista Mensal',
      amount: 30,
      currency: 'BRL',
      interval_type: 'MONTH',
      interval_count: 2,
    });
    const pref = await env.createPreference({
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['PIX'],
    });
    const page = await (await browser.context(t)).newPage();

    // 1. The first period, paid with PIX on the hosted checkout (test-mode simulate button).
    await page.goto(env.checkoutUrl(pref.id));
    await fillPayer(page, { email: 'ana@example.com', firstName: 'Ana', lastName: 'Souza' });
    await page.getByRole('radio', { name: 'PIX', exact: true }).check();
    await pay(page);
    await page.locator('[data-test="pix-payload"]').waitFor();
    await page.getByRole('button', { name: 'Simulate payment received', exact: true }).click();
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    const first = await api(env, 'GET', `/v1/payment_orders?checkout_preference_id=${pref.id}`);
    const recId = String(first.data[0].recurrent_payment_id);
    let rec = await recurrent(env, recId);
    assert.equal(rec.status, 'ACTIVE');

    // 2. Two days before the due date the renewal is opened and its notice sent over SMTP.
    const due = Date.parse(String(rec.next_payment_date));
    await advanceTo(env, new Date(due - 2 * 86_400_000).toISOString());
    const [mail] = await inbox.waitFor(1);
    assert.ok(mail);
    assert.deepEqual(mail.to, ['ana@example.com']);
    assert.match(mail.subject, /^Payment due: Revista Mensal \(Merchant [0-9a-f]{6}\)$/, 'names the merchant');
    const paymentLine = mail.text.split('\n').find((l) => l.startsWith('Payment page (QR code and details): '));
    const manageLine = mail.text.split('\n').find((l) => l.startsWith('Manage or cancel your subscription: '));
    assert.ok(paymentLine && manageLine, mail.text);
    // Paid on the English page: an English mail, reais as an English reader writes them.
    assert.match(mail.text, /R\$30\.00/);

    // 3. The payer opens the payment page from the e-mail: the BR Code in the mail is the one on the page.
    await page.goto(onServer(env, paymentLine.slice(paymentLine.indexOf('http'))));
    const payload = await page.locator('[data-test="pix-payload"]').inputValue();
    assert.match(payload, /^000201.*6304[0-9A-F]{4}$/);
    assert.ok(mail.text.split('\n').includes(payload), 'the e-mail carries the same BR Code');
    assert.equal(await page.getByRole('link', { name: /another/i }).count(), 0, 'no method change on a renewal');
    await page.getByRole('button', { name: 'Simulate payment received', exact: true }).click();
    await page.locator('[data-test="result-paid"]').waitFor({ timeout: 10_000 });
    rec = await recurrent(env, recId);
    assert.equal(rec.status, 'ACTIVE');
    assert.equal(rec.periods_paid, 2, JSON.stringify(rec));

    // 4. The signed manage link of the same e-mail shows the paid renewal.
    await page.goto(onServer(env, manageLine.slice(manageLine.indexOf('http'))));
    assert.equal(await text(page, 'periods-paid'), '2 of 2');
    assert.equal(await text(page, 'method'), 'PIX');
    assert.equal(await page.locator('[data-test="pay-now"]').count(), 0, 'nothing left to pay');
    const mailbox = await api(env, 'GET', '/v1/test_helpers/emails');
    assert.equal(mailbox.data[0].status, 'SENT', JSON.stringify(mailbox));
  });
});
