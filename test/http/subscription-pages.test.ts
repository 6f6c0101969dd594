import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import { cookieFrom, FORM, OUR_ORIGIN, postForm, tokenFrom } from '../support/page-forms.ts';
import { withoutRandomTokens } from '../support/page-text.ts';
import { pay } from '../support/payments.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { buildTestApp } from '../support/test-app.ts';
import { assertError, UNKNOWN_ID } from './helpers.ts';

/**
 * The payer's subscription page (`/subscriptions/:id?sig=…`), reached by the signed link in the
 * renewal e-mails: what it shows, who may open it, and the two things a payer can do there.
 */

const DAY = 86_400;

/** The page's path and query from the signed URL (PUBLIC_URL is not where inject sends). */
function pathOf(url: string): string {
  const u = new URL(url);
  return `${u.pathname}${u.search}`;
}

async function payerLink(app: FastifyInstance, merchant: TestMerchant, recId: string): Promise<string> {
  const res = await app.inject({
    url: `/v1/test_helpers/recurrent_payments/${recId}/payer_link`,
    headers: merchant.authHeaders,
  });
  assert.equal(res.statusCode, 200, res.body);
  const body = res.json() as { url: string; recurrent_payment_id: string };
  assert.equal(body.recurrent_payment_id, recId);
  return body.url;
}

/** Opens a page as a browser would: keeps the CSRF cookie it was given and the form's token. */
async function open(app: FastifyInstance, path: string, cookie: string | null = null) {
  const res = await app.inject({ method: 'GET', url: path, headers: cookie ? { cookie } : {} });
  assert.equal(res.statusCode, 200, res.body);
  const kept = cookie ?? cookieFrom(res);
  assert.ok(kept, 'the page sets the cobro_csrf cookie');
  if (res.headers['set-cookie'] !== undefined) {
    // Sent back to the payer pages only, never to the checkout or the API.
    assert.match(String(res.headers['set-cookie']), /; Path=\/subscriptions; HttpOnly; SameSite=Strict$/);
  }
  return { res, session: { cookie: kept, token: tokenFrom(res.body) } };
}

/** The text of the element carrying `data-test="<name>"` (the page's markup is ours and simple). */
function field(body: string, name: string): string {
  const m = new RegExp(`data-test="${name}"[^>]*>([^<]*)<`).exec(body);
  assert.ok(m, `no ${name} on the page: ${body}`);
  return m[1] ?? '';
}

function assertSecurityHeaders(res: LightMyRequestResponse, what: string): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  assert.match(csp, /script-src 'nonce-[A-Za-z0-9_-]{16,}'/, `${what}: ${csp}`);
  for (const directive of ["default-src 'none'", "form-action 'self'", "frame-ancestors 'none'", "base-uri 'none'"]) {
    assert.ok(csp.includes(directive), `${what}: CSP lacks ${directive}: ${csp}`);
  }
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.equal(res.headers['cache-control'], 'no-store', what);
  assert.equal(res.headers['referrer-policy'], 'strict-origin', what);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', what);
}

async function cardSubscription(
  ctx: TestApp,
  plan: Record<string, unknown> = {},
  checkout: Record<string, unknown> = {},
) {
  const link = await createPaymentLink(ctx.app, ctx.merchant, {
    title: 'Coffee club',
    amount: 12.5,
    interval_type: 'MONTH',
    interval_count: 6,
    ...plan,
  });
  const pref = await createPreference(ctx.app, ctx.merchant, {
    type: 'SUBSCRIPTION',
    payment_link_id: link.id,
    payment_method_types: ['CARD'],
    ...checkout,
  });
  const order = await pay(ctx.app, ctx.merchant, pref.id);
  assert.equal(order.statusCode, 201, order.body);
  const recId = String(order.json().recurrent_payment_id);
  return { recId, path: pathOf(await payerLink(ctx.app, ctx.merchant, recId)) };
}

async function recurrent(ctx: TestApp, id: string): Promise<Record<string, unknown>> {
  const res = await ctx.app.inject({ url: `/v1/recurrent_payments/${id}`, headers: ctx.merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function advance(ctx: TestApp, seconds: number): Promise<void> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/test_helpers/clock/advance',
    headers: ctx.merchant.authHeaders,
    payload: { seconds },
  });
  assert.equal(res.statusCode, 200, res.body);
}

describe('the payer subscription page', () => {
  test('shows plan, amount, status, next payment date, periods paid and the card, with the checkout security headers', async (t) => {
    const ctx = await buildTestApp(t);
    const { recId, path } = await cardSubscription(ctx, { signup_fee_amount: 2 });
    assert.match(path, new RegExp(`^/subscriptions/${recId}\\?sig=[A-Za-z0-9_-]{43}$`));
    const { res } = await open(ctx.app, path);
    assertSecurityHeaders(res, 'subscription page');
    const rec = await recurrent(ctx, recId);
    assert.equal(field(res.body, 'title'), 'Coffee club');
    assert.equal(field(res.body, 'amount'), '$12.50 every month');
    assert.equal(field(res.body, 'status'), 'Active');
    assert.match(res.body, /data-status="ACTIVE"/);
    assert.equal(field(res.body, 'duration'), '6 monthly payments');
    assert.equal(field(res.body, 'signup-fee'), '$2.00');
    assert.equal(field(res.body, 'periods-paid'), '1 of 6');
    assert.equal(field(res.body, 'method'), 'Visa ending in 4242');
    const next = new Date(String(rec.next_payment_date));
    const expected = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
    assert.equal(field(res.body, 'next-payment'), `${expected.format(next)} UTC`);
    assert.match(res.body, /data-test="test-mode-banner"/);
    for (const label of ['Card number', 'Expiry date (MM/YY)', 'Security code', 'Name on card']) {
      assert.ok(res.body.includes(`>${label}</label>`), `no ${label} label`);
    }
    assert.match(res.body, /<button type="submit" class="pay" data-test="save-card">Save card<\/button>/);
    assert.match(res.body, /data-test="cancel-link"/);
  });

  test('answers 404 with the same page for a missing, wrong or foreign signature and for an unknown id', async (t) => {
    const ctx = await buildTestApp(t);
    const a = await cardSubscription(ctx);
    const b = await cardSubscription(ctx);
    const sigOf = (path: string) => new URL(path, OUR_ORIGIN).searchParams.get('sig') ?? '';
    const idA = a.recId;
    const wrong = [
      `/subscriptions/${idA}`,
      `/subscriptions/${idA}?sig=`,
      `/subscriptions/${idA}?sig=${sigOf(b.path)}`,
      // One character changed (to a different one: a signature may already end in A).
      `/subscriptions/${idA}?sig=${sigOf(a.path).slice(0, -1)}${sigOf(a.path).endsWith('A') ? 'B' : 'A'}`,
      `/subscriptions/${idA}?sig=${'x'.repeat(500)}`,
      `/subscriptions/${UNKNOWN_ID}?sig=${sigOf(a.path)}`,
      `/subscriptions/not-an-id?sig=${sigOf(a.path)}`,
      `/subscriptions/${idA}/cancel?sig=${sigOf(b.path)}`,
    ];
    const bodies = new Set<string>();
    for (const url of wrong) {
      const res = await ctx.app.inject({ url });
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assertSecurityHeaders(res, url);
      assert.match(res.body, /data-test="subscription-notFound"/, url);
      assert.ok(!res.body.includes('Coffee club'), `${url} leaks the plan`);
      // The script nonce differs per response, and the language switcher links back to the address
      // asked for (what the browser already has); everything else is the same page.
      bodies.add(res.body.replace(/nonce="[^"]+"/, '').replace(/<nav class="languages"[\s\S]*?<\/nav>/, ''));
    }
    assert.equal(bodies.size, 1, 'one identical page for every refused link');
  });

  test('escapes the plan title and the payer e-mail, which come from the merchant and the payer', async (t) => {
    const ctx = await buildTestApp(t);
    const { path } = await cardSubscription(ctx, { title: '<script>alert(1)</script> "quoted" & <b>bold</b>' });
    const { res } = await open(ctx.app, path);
    assert.ok(!res.body.includes('<script>alert(1)'), 'the title is escaped');
    assert.ok(
      res.body.includes('&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp; &lt;b&gt;bold&lt;/b&gt;'),
    );
  });

  test('cancels after a confirmation step, answers 303 back to the page, and emits RECURRENT_PAYMENT.CANCELED', async (t) => {
    const ctx = await buildTestApp(t);
    const { recId, path } = await cardSubscription(ctx);
    const sig = new URL(path, OUR_ORIGIN).searchParams.get('sig') ?? '';
    const page = await open(ctx.app, path);
    const confirm = await open(ctx.app, `/subscriptions/${recId}/cancel?sig=${sig}`, page.session.cookie);
    assertSecurityHeaders(confirm.res, 'confirmation');
    assert.match(confirm.res.body, /Yes, cancel subscription/);
    assert.equal((await recurrent(ctx, recId)).status, 'ACTIVE', 'opening the confirmation changes nothing');

    const noToken = await postForm(ctx.app, `/subscriptions/${recId}/cancel`, null, { sig });
    assert.equal(noToken.statusCode, 403, noToken.body);
    assert.match(noToken.body, /data-test="subscription-csrf"/);
    const foreignSite = await ctx.app.inject({
      method: 'POST',
      url: `/subscriptions/${recId}/cancel`,
      headers: { 'content-type': FORM, origin: 'https://evil.example', cookie: confirm.session.cookie },
      payload: new URLSearchParams({ csrf_token: confirm.session.token, sig }).toString(),
    });
    assert.equal(foreignSite.statusCode, 403, foreignSite.body);
    const badSig = await postForm(ctx.app, `/subscriptions/${recId}/cancel`, confirm.session, { sig: 'x'.repeat(43) });
    assert.equal(badSig.statusCode, 404, badSig.body);
    assert.equal((await recurrent(ctx, recId)).status, 'ACTIVE');

    const done = await postForm(ctx.app, `/subscriptions/${recId}/cancel`, confirm.session, { sig });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, `/subscriptions/${recId}?sig=${sig}&done=canceled`);
    const after = await ctx.app.inject({ url: String(done.headers.location) });
    assert.equal(after.statusCode, 200, after.body);
    assert.equal(field(after.body, 'notice'), 'Your subscription is canceled. No further payment will be taken.');
    assert.equal(field(after.body, 'status'), 'Canceled');
    assert.ok(!after.body.includes('data-test="card-form"'), 'no card form once canceled');
    assert.ok(!after.body.includes('data-test="cancel-link"'));
    // Over: the link lives on in old e-mails, so the page no longer names the card.
    assert.equal(field(after.body, 'method'), 'Card');
    assert.ok(!withoutRandomTokens(after.body).includes('4242'), 'no card digits once canceled');
    const rec = await recurrent(ctx, recId);
    assert.equal(rec.status, 'CANCELED');
    assert.equal(rec.deleted_by, 'payer');
    const events = await ctx.app.inject({
      url: `/v1/events?entity_id=${recId}&event_type=RECURRENT_PAYMENT.CANCELED`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(events.json().data.length, 1, events.body);
  });

  test('a subscription that is over shows plan, amount, status and reference, and neither the subscriber nor the card', async (t) => {
    const ctx = await buildTestApp(t);
    const { recId, path } = await cardSubscription(
      ctx,
      { interval_count: 1 },
      {
        external_id: 'SUB-7781',
        payer: { email: 'marisol.quintanilla@payer.example', first_name: 'Marisol', phone: '+56 9 8765 4321' },
      },
    );
    const active = await ctx.app.inject({ url: path });
    assert.equal(field(active.body, 'payer'), 'marisol.quintanilla@payer.example', 'in use, it names the subscriber');
    assert.equal(field(active.body, 'method'), 'Visa ending in 4242');
    assert.equal(field(active.body, 'external-id'), 'SUB-7781');

    await advance(ctx, 32 * DAY);
    assert.equal((await recurrent(ctx, recId)).status, 'COMPLETE');
    const over = await ctx.app.inject({ url: path });
    assert.equal(over.statusCode, 200, over.body);
    assert.equal(field(over.body, 'title'), 'Coffee club');
    assert.equal(field(over.body, 'amount'), '$12.50 every month');
    assert.equal(field(over.body, 'status'), 'Completed: every period is paid');
    assert.equal(field(over.body, 'external-id'), 'SUB-7781');
    assert.equal(field(over.body, 'method'), 'Card');
    for (const trace of [
      'Marisol',
      'Quintanilla',
      'payer.example',
      '56987654321',
      '4242',
      'Visa',
      'data-test="payer"',
    ]) {
      assert.ok(!withoutRandomTokens(over.body).includes(trace), `the ended page holds ${trace}: ${over.body}`);
    }
    for (const gone of ['card-form', 'cancel-link', 'next-payment', 'current-period', 'pay-now']) {
      assert.ok(!over.body.includes(`data-test="${gone}"`), `no ${gone} once over`);
    }
  });

  test('a new card saved on the page is charged at the next renewal, and its number never comes back or reaches the logs', async (t) => {
    const lines: string[] = [];
    const ctx = await buildTestApp(t, 'sqlite', { logStream: { write: (line: string) => void lines.push(line) } });
    const { recId, path } = await cardSubscription(ctx, { interval_count: 3 });
    const sig = new URL(path, OUR_ORIGIN).searchParams.get('sig') ?? '';
    const page = await open(ctx.app, path);

    const invalid = await postForm(ctx.app, `/subscriptions/${recId}/card`, page.session, {
      sig,
      card_number: '4242 4242 4242 4241',
      card_expiry: '13/99',
      card_cvc: '12',
      card_holder_name: '',
    });
    assert.equal(invalid.statusCode, 400, invalid.body);
    for (const f of ['card_number', 'card_expiry', 'card_cvc', 'card_holder_name']) {
      assert.match(invalid.body, new RegExp(`data-test="error-${f}"`), f);
    }
    assert.ok(!invalid.body.includes('4242 4242 4242 4241') && !invalid.body.includes('4242424242424241'));
    assert.equal(field(invalid.body, 'method'), 'Visa ending in 4242', 'the card did not change');

    const saved = await postForm(ctx.app, `/subscriptions/${recId}/card`, page.session, {
      sig,
      card_number: '4000 0000 0000 0341',
      card_expiry: '12/34',
      card_cvc: '737',
      card_holder_name: 'Ana Souza',
    });
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `/subscriptions/${recId}?sig=${sig}&done=card`);
    const shown = await ctx.app.inject({ url: String(saved.headers.location) });
    assert.equal(field(shown.body, 'method'), 'Visa ending in 0341');
    assert.equal(field(shown.body, 'notice'), 'Your new card is saved. The next payment will be charged to it.');
    assert.equal((await recurrent(ctx, recId)).status, 'ACTIVE', 'saving a card charges nothing');

    // This test card is saved fine and declined on every charge: the renewal fails with it.
    await advance(ctx, 31 * DAY);
    const rec = await recurrent(ctx, recId);
    assert.equal(rec.status, 'UNPAID', JSON.stringify(rec));
    const unpaid = await ctx.app.inject({ url: path });
    assert.equal(field(unpaid.body, 'status'), 'Payment failed');
    assert.match(unpaid.body, /<dt>Next try<\/dt>/);

    const logged = lines.join('\n');
    for (const secret of ['4000000000000341', '4000 0000 0000 0341', '4242424242424241', 'card_cvc=737']) {
      assert.ok(!logged.includes(secret), `the logs hold ${secret}`);
    }
  });

  test('a card the processor refuses is reported beside its field and the subscription keeps its card', async (t) => {
    const ctx = await buildTestApp(t);
    const { recId, path } = await cardSubscription(ctx);
    const sig = new URL(path, OUR_ORIGIN).searchParams.get('sig') ?? '';
    const page = await open(ctx.app, path);
    const tooLong = await postForm(ctx.app, `/subscriptions/${recId}/card`, page.session, {
      sig,
      card_number: '4'.repeat(41),
      card_expiry: '12/34',
      card_cvc: '737',
      card_holder_name: 'Ana Souza',
    });
    assert.equal(tooLong.statusCode, 400, tooLong.body);
    assert.equal(field(tooLong.body, 'error-card_number'), 'This is too long.');
    const expired = await postForm(ctx.app, `/subscriptions/${recId}/card`, page.session, {
      sig,
      card_number: '4242424242424242',
      card_expiry: '01/20',
      card_cvc: '737',
      card_holder_name: 'Ana Souza',
    });
    assert.equal(expired.statusCode, 400, expired.body);
    assert.equal(field(expired.body, 'error-card_expiry'), 'This card has expired.');
    assert.equal((await recurrent(ctx, recId)).status, 'ACTIVE');
  });

  test('speaks the payer’s language: labels, statuses, plan, money and dates in Spanish or Portuguese', async (t) => {
    const ctx = await buildTestApp(t);
    const { recId, path } = await cardSubscription(ctx, { signup_fee_amount: 2 });
    const rec = await recurrent(ctx, recId);
    const next = new Date(String(rec.next_payment_date));
    const cases = [
      {
        header: 'pt-BR,pt;q=0.9',
        tag: 'pt-BR',
        dateLocale: 'pt-BR',
        amount: `${new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'USD' }).format(12.5)} por mês`,
        status: 'Ativa',
        duration: '6 pagamentos mensais',
        periods: '1 de 6',
        labels: ['Número do cartão', 'Validade (MM/AA)', 'Código de segurança', 'Nome no cartão'],
        save: 'Salvar cartão',
      },
      {
        header: 'es-MX',
        tag: 'es',
        dateLocale: 'es',
        amount: `${new Intl.NumberFormat('es-MX', { style: 'currency', currency: 'USD' }).format(12.5)} por mes`,
        status: 'Activa',
        duration: '6 pagos mensuales',
        periods: '1 de 6',
        labels: ['Número de tarjeta', 'Fecha de vencimiento (MM/AA)', 'Código de seguridad', 'Nombre en la tarjeta'],
        save: 'Guardar tarjeta',
      },
    ];
    for (const c of cases) {
      const res = await ctx.app.inject({ url: path, headers: { 'accept-language': c.header } });
      assert.equal(res.statusCode, 200, res.body);
      assert.match(res.body, new RegExp(`<html lang="${c.tag}">`));
      assert.equal(field(res.body, 'amount'), c.amount);
      assert.equal(field(res.body, 'status'), c.status);
      assert.equal(field(res.body, 'duration'), c.duration);
      assert.equal(field(res.body, 'periods-paid'), c.periods);
      const date = new Intl.DateTimeFormat(c.dateLocale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
      assert.equal(field(res.body, 'next-payment'), `${date.format(next)} UTC`);
      for (const label of c.labels) {
        assert.ok(res.body.includes(`>${label}</label>`), `${c.tag}: no ${label} label`);
      }
      assert.match(res.body, new RegExp(`data-test="save-card">${c.save}</button>`));
      for (const english of ['Card number', 'Save card', 'Periods paid', 'Cancel subscription', 'every month']) {
        assert.ok(!res.body.includes(english), `${c.tag}: "${english}" left in English`);
      }
    }
  });

  test('a PIX subscription shows its method, no card form, and a link to pay an open renewal', async (t) => {
    const ctx = await buildTestApp(t);
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Revista',
      amount: 30,
      currency: 'BRL',
      interval_type: 'MONTH',
      interval_count: 2,
    });
    const pref = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['PIX'],
    });
    const order = await pay(ctx.app, ctx.merchant, pref.id);
    assert.equal(order.json().status, 'CLOSED', order.body);
    const recId = String(order.json().recurrent_payment_id);
    const path = pathOf(await payerLink(ctx.app, ctx.merchant, recId));
    const before = await ctx.app.inject({ url: path });
    assert.equal(before.statusCode, 200, before.body);
    assert.equal(field(before.body, 'method'), 'PIX');
    assert.equal(field(before.body, 'amount'), 'R$30.00 every month');
    assert.ok(!before.body.includes('data-test="card-form"'));
    assert.ok(!before.body.includes('data-test="pay-now"'), 'nothing to pay yet');
    // Within RENEWAL_NOTICE_HOURS of the due date the renewal is opened and can be paid from the page.
    await advance(ctx, 29 * DAY);
    const renewals = await ctx.app.inject({
      url: `/v1/payment_orders?recurrent_payment_id=${recId}&status=OPENED`,
      headers: ctx.merchant.authHeaders,
    });
    const renewal = renewals.json().data[0] as { id: string } | undefined;
    assert.ok(renewal, renewals.body);
    const after = await ctx.app.inject({ url: path });
    assert.match(after.body, new RegExp(`href="/checkout/${pref.id}/orders/${renewal.id}" data-test="pay-now"`));
    const orderPage = await ctx.app.inject({ url: `/checkout/${pref.id}/orders/${renewal.id}` });
    assert.equal(orderPage.statusCode, 200, orderPage.body);
    assert.match(orderPage.body, /data-test="pix-payload"/, 'the renewal page shows the BR Code, not "already paid"');
    assert.match(orderPage.body, /data-test="simulate"/);
    assert.ok(!orderPage.body.includes('data-test="choose-another"'), 'a renewal keeps the method of the subscription');
  });
});

describe('GET /v1/test_helpers/recurrent_payments/{id}/payer_link', () => {
  test('answers 403 FORBIDDEN with live keys and 404 NOT_FOUND for ids of no subscription of this merchant', async (t) => {
    const ctx = await buildTestApp(t);
    const { recId } = await cardSubscription(ctx);
    const live = await ctx.createMerchant('live');
    const other = await ctx.createMerchant('test');
    const forbidden = await ctx.app.inject({
      url: `/v1/test_helpers/recurrent_payments/${recId}/payer_link`,
      headers: live.authHeaders,
    });
    assertError(forbidden, 403, 'FORBIDDEN');
    for (const [who, id] of [
      [ctx.merchant, UNKNOWN_ID],
      [other, recId],
    ] as const) {
      const res = await ctx.app.inject({
        url: `/v1/test_helpers/recurrent_payments/${id}/payer_link`,
        headers: who.authHeaders,
      });
      assertError(res, 404, 'NOT_FOUND', ['recurrent payment not found']);
    }
  });
});
