import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { XSS_PAYLOADS } from '../e2e/support/xss-payloads.ts';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import {
  cookieFrom,
  FORM,
  hiddenFieldsOf,
  OUR_ORIGIN,
  postForm,
  type Session,
  tokenFrom,
} from '../support/page-forms.ts';
import { withoutRandomTokens } from '../support/page-text.ts';
import type { TestMerchant } from '../support/test-app.ts';
import { buildTestApp } from '../support/test-app.ts';
import { BRL_PIX_ID, USD_BANK_TRANSFER_ID, USD_CARD_ID } from './helpers.ts';

const CRYPTO_USDT_ETHEREUM = 'VLzWq0e7ih0JK0oCZ2kmsm';

/** Opens a page as a browser would: keeps the CSRF cookie it was given and the form's token. */
async function open(
  app: FastifyInstance,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ res: LightMyRequestResponse; session: Session }> {
  const res = await app.inject({ method: 'GET', url, headers });
  assert.equal(res.statusCode, 200, res.body);
  const cookie = headers.cookie ?? cookieFrom(res);
  assert.ok(cookie, 'the first page sets the cobro_csrf cookie');
  return { res, session: { cookie, token: tokenFrom(res.body) } };
}

const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza', phone: '+55 11 98765 4321' };
const CARD = { card_expiry: '12/34', card_cvc: '737', card_holder_name: 'Ana Souza' };
/** Every card field wrong: a number failing Luhn, month 13, a short CVC, digits in the name. */
const WRONG_CARD = {
  card_number: '4242 4242 4242 4241',
  card_expiry: '13/99',
  card_cvc: '73',
  card_holder_name: 'R2D2',
};

/** Asserts the security headers every checkout page must carry (R20), and that scripts carry the header's nonce. */
function assertPageHeaders(res: LightMyRequestResponse, what: string): void {
  const csp = String(res.headers['content-security-policy'] ?? '');
  const nonce = /script-src 'nonce-([A-Za-z0-9_+/=-]{16,})'/.exec(csp)?.[1];
  assert.ok(nonce, `${what}: CSP without a script nonce: ${csp}`);
  for (const directive of [
    "default-src 'none'",
    "style-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "object-src 'none'",
    "frame-ancestors 'none'",
  ]) {
    assert.ok(csp.includes(directive), `${what}: CSP lacks ${directive}: ${csp}`);
  }
  assert.match(csp, /form-action 'self'/, `${what}: ${csp}`);
  assert.ok(!/unsafe-inline|unsafe-eval|\*/.test(csp), `${what}: CSP too loose: ${csp}`);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  assert.equal(res.headers['cache-control'], 'no-store', what);
  assert.ok(
    ['no-referrer', 'strict-origin', 'same-origin'].includes(String(res.headers['referrer-policy'])),
    `${what}: referrer-policy ${String(res.headers['referrer-policy'])}`,
  );
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', what);
  const scripts = [...res.body.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
  assert.ok(scripts.length > 0, `${what}: the page loads its script`);
  for (const tag of scripts) {
    assert.ok(tag.includes(`nonce="${nonce}"`), `${what}: script without this response's nonce: ${tag}`);
  }
}

async function payByTestHelper(app: FastifyInstance, merchant: TestMerchant, prefId: string, body = {}) {
  const res = await app.inject({
    method: 'POST',
    url: `/v1/test_helpers/checkout_preferences/${prefId}/pay`,
    headers: merchant.authHeaders,
    payload: body,
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string; status: string };
}

async function latestOrderId(app: FastifyInstance, merchant: TestMerchant, prefId: string): Promise<string> {
  const res = await app.inject({
    method: 'GET',
    url: `/v1/checkout_preferences/${prefId}`,
    headers: merchant.authHeaders,
  });
  const id = (res.json() as { payment_order_id: string | null }).payment_order_id;
  assert.ok(id, res.body);
  return id;
}

/** The order is CLOSED, paid by PAYER as the API writes a payer. */
async function assertClosedForPayer(app: FastifyInstance, merchant: TestMerchant, orderId: string): Promise<void> {
  const order = await app.inject({ url: `/v1/payment_orders/${orderId}`, headers: merchant.authHeaders });
  assert.equal(order.json().status, 'CLOSED', order.body);
  assert.deepEqual(order.json().payer, {
    email: 'ana@example.com',
    first_name: 'Ana',
    last_name: 'Souza',
    phone_number: '+5511987654321',
  });
}

describe('checkout pages: rendering', () => {
  test('renders the form with payer fields, the eligible methods by name and the card fields hidden until Card is chosen', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, { external_id: 'order-77' });
    const { res } = await open(app, `/checkout/${pref.id}`);
    assertPageHeaders(res, 'form');
    for (const [id, label] of [
      ['email', 'Email'],
      ['first_name', 'First name'],
      ['last_name', 'Last name'],
      ['phone', 'Phone'],
      ['card_number', 'Card number'],
      ['card_expiry', 'Expiry date (MM/YY)'],
      ['card_cvc', 'Security code'],
      ['card_holder_name', 'Name on card'],
    ]) {
      assert.ok(res.body.includes(`<label for="${id}">${label}</label>`), `label ${label}`);
      assert.match(res.body, new RegExp(`<input id="${id}" name="${id}"`), `input ${id}`);
    }
    // Several methods to choose from: the card fields wait, hidden and disabled (never posted), none required.
    assert.match(
      res.body,
      /<fieldset class="card-fields" id="card-fields" data-test="card-fields" data-card-on-choice hidden disabled>/,
    );
    assert.ok(
      !/<input id="card_[a-z_]+"[^>]* required/.test(res.body),
      'no card field is required before Card is chosen',
    );
    for (const name of ['Card', 'Bank transfer', 'USDT on Ethereum', 'BTC on Bitcoin']) {
      assert.ok(res.body.includes(`">${name}</label>`), `method ${name} offered`);
    }
    // PIX takes BRL and cash no USD: a USD checkout does not offer them.
    assert.ok(!res.body.includes('>PIX</label>'), 'PIX not offered for USD');
    assert.ok(!res.body.includes('>Cash'), 'cash not offered for USD');
    assert.match(res.body, /<button type="submit" class="pay" data-test="pay-button">Pay<\/button>/);
    assert.match(res.body, /data-test="test-mode-banner"/);
    assert.match(res.body, /data-test="amount"><span class="hint">Total<\/span> \$16\.90</);
    assert.match(res.body, /order-77/);
    const cookie = String(res.headers['set-cookie']);
    assert.match(cookie, /^cobro_csrf=[A-Za-z0-9_-]{43}; Path=\/checkout; HttpOnly; SameSite=Strict$/);
  });

  test('asks only for what the preference lacks: no payer fields, no method choice when both are given', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, {
      payer: { email: 'ana@example.com', name: 'Ana', last_name: 'Souza', phone: '+5511987654321' },
      selected_payment_method_id: USD_CARD_ID,
    });
    const { res } = await open(app, `/checkout/${pref.id}`);
    for (const id of ['email', 'first_name', 'last_name', 'phone']) {
      assert.ok(!res.body.includes(`id="${id}"`), `${id} is not asked`);
    }
    assert.ok(!res.body.includes('type="radio"'), 'no method choice');
    assert.match(res.body, /data-test="selected-method">Card</);
    // The card is the only way to pay: its fields are on this first page, shown and required.
    assert.match(res.body, /<fieldset class="card-fields" id="card-fields" data-test="card-fields">/);
    assert.match(res.body, /<input id="card_number"[^>]* required aria-required="true"/);
    assert.match(res.body, /ana@example\.com/, 'the payer sees who pays');
  });

  test('asks for the missing payer members only', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, { payer: { email: 'ana@example.com' } });
    const { res } = await open(app, `/checkout/${pref.id}`);
    assert.ok(!res.body.includes('id="email"'));
    for (const id of ['first_name', 'last_name', 'phone']) {
      assert.ok(res.body.includes(`id="${id}"`), `${id} is asked`);
    }
  });

  test('a subscription checkout offers only methods that allow recurrent payments and says the card is kept', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const link = await createPaymentLink(app, merchant);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: merchant.authHeaders,
      payload: { type: 'SUBSCRIPTION', origin: 'API', payment_link_id: link.id },
    });
    assert.equal(res.statusCode, 201, res.body);
    const { res: page } = await open(app, `/checkout/${(res.json() as { id: string }).id}`);
    assert.match(page.body, /data-test="title">Gold plan</);
    assert.match(page.body, /the card processor keeps your card/);
    assert.ok(page.body.includes('">Card</label>'));
  });

  test('speaks Spanish and Portuguese from Accept-Language, labels and method names included', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const es = await app.inject({ url: `/checkout/${pref.id}`, headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    assert.match(es.body, /<html lang="es">/);
    assert.match(es.body, /Tus datos/);
    assert.match(es.body, /<label for="email">Correo electrónico<\/label>/);
    assert.match(es.body, /<label for="card_expiry">Fecha de vencimiento \(MM\/AA\)<\/label>/);
    assert.match(es.body, /data-test="pay-button">Pagar<\/button>/);
    assert.ok(es.body.includes('">Tarjeta</label>') && es.body.includes('">USDT en Ethereum</label>'));
    assert.ok(!es.body.includes('>Email</label>') && !es.body.includes('>Pay</button>'), 'no English label');
    const pt = await app.inject({
      url: `/checkout/${pref.id}`,
      headers: { 'accept-language': 'en;q=0.5, pt-BR;q=0.9' },
    });
    assert.match(pt.body, /<html lang="pt-BR">/);
    assert.match(pt.body, /Seus dados/);
    assert.match(pt.body, /<label for="card_number">Número do cartão<\/label>/);
    assert.ok(pt.body.includes('">Cartão</label>') && pt.body.includes('">Transferência bancária</label>'));
    // US dollars as a Brazilian writes them.
    assert.ok(pt.body.includes(new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'USD' }).format(16.9)));
    const fr = await app.inject({ url: `/checkout/${pref.id}`, headers: { 'accept-language': 'fr-FR,de;q=0.8' } });
    assert.match(fr.body, /<html lang="en">/);
    assert.match(fr.body, /Your details/);
  });

  test('unknown, malformed and foreign ids answer 404 pages in HTML', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const other = await createPreference(app, merchant);
    const otherOrder = await payByTestHelper(app, merchant, other.id);
    for (const url of [
      '/checkout/AAAAAAAAAAAAAAAAAAAAAA',
      '/checkout/not-an-id',
      `/checkout/${pref.id}/orders/AAAAAAAAAAAAAAAAAAAAAA`,
      // An order of another checkout: the pair of ids is the capability.
      `/checkout/${pref.id}/orders/${otherOrder.id}`,
      `/checkout/${pref.id}/no/such/page`,
      '/checkout/assets/evil.js',
    ]) {
      const res = await app.inject({ url });
      assert.equal(res.statusCode, 404, `${url}: ${res.body}`);
      assertPageHeaders(res, url);
      assert.match(res.body, /data-test="checkout-notFound"/, url);
    }
    const status = await app.inject({ url: `/checkout/${pref.id}/orders/${otherOrder.id}/status` });
    assert.equal(status.statusCode, 404);
  });

  test('an expired preference shows the expired page and refuses payment', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const advanced = await app.inject({
      method: 'POST',
      url: '/v1/test_helpers/clock/advance',
      headers: merchant.authHeaders,
      payload: { seconds: 16 * 60 },
    });
    assert.equal(advanced.statusCode, 200, advanced.body);
    const res = await app.inject({ url: `/checkout/${pref.id}` });
    assert.equal(res.statusCode, 200);
    assertPageHeaders(res, 'expired');
    assert.match(res.body, /data-test="checkout-expired"/);
    assert.match(res.body, /This checkout has expired/);
    assert.ok(!res.body.includes('<form'), 'no form on an expired checkout');
    const paid = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242424242424242',
      ...CARD,
    });
    assert.equal(paid.statusCode, 409, paid.body);
    assert.match(paid.body, /data-test="checkout-expired"/);
  });

  test('a paid preference shows the paid page', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    await payByTestHelper(app, merchant, pref.id);
    const res = await app.inject({ url: `/checkout/${pref.id}` });
    assert.equal(res.statusCode, 200);
    assertPageHeaders(res, 'paid');
    assert.match(res.body, /data-test="checkout-paid"/);
    assert.ok(!res.body.includes('<form'));
  });

  test('serves its own stylesheet and script, content-hashed and cacheable', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const page = await app.inject({ url: `/checkout/${pref.id}` });
    const css = /href="(\/checkout\/assets\/checkout\.[0-9a-f]{12}\.css)"/.exec(page.body)?.[1];
    const js = /src="(\/checkout\/assets\/checkout\.[0-9a-f]{12}\.js)"/.exec(page.body)?.[1];
    assert.ok(css && js, 'page links our assets');
    const cssRes = await app.inject({ url: css });
    assert.equal(cssRes.statusCode, 200);
    assert.equal(cssRes.headers['content-type'], 'text/css; charset=utf-8');
    assert.match(String(cssRes.headers['cache-control']), /immutable/);
    const jsRes = await app.inject({ url: js });
    assert.equal(jsRes.statusCode, 200);
    assert.equal(jsRes.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(jsRes.headers['x-content-type-options'], 'nosniff');
    // Every URL the page loads is ours (no third-party asset).
    for (const m of page.body.matchAll(/(?:href|src)="([^"]*)"/g)) {
      const url = m[1] ?? '';
      assert.ok(url.startsWith('/checkout/') || url === 'data:,', `third-party or absolute URL: ${url}`);
    }
  });

  test('errors under /checkout are HTML pages too: body too large, not a form', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const large = await app.inject({
      method: 'POST',
      url: `/checkout/${pref.id}`,
      headers: { 'content-type': FORM, origin: OUR_ORIGIN },
      payload: `email=${'a'.repeat(20_000)}`,
    });
    assert.equal(large.statusCode, 413, large.body);
    assertPageHeaders(large, 'too large');
    assert.match(large.body, /data-test="checkout-badRequest"/);
    const multipart = await app.inject({
      method: 'POST',
      url: `/checkout/${pref.id}`,
      headers: { 'content-type': 'multipart/form-data; boundary=x', origin: OUR_ORIGIN },
      payload: '--x--',
    });
    assert.equal(multipart.statusCode, 415, multipart.body);
    assertPageHeaders(multipart, 'multipart');
  });

  test('coming back to the checkout shows the open payment and keeps what the payer typed', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_BANK_TRANSFER_ID,
    });
    const orderUrl = String(res.headers.location);
    const back = await app.inject({ url: `/checkout/${pref.id}`, headers: { cookie: session.cookie } });
    assert.equal(back.statusCode, 200);
    assert.match(back.body, new RegExp(`data-test="open-order">[^<]+<a href="${orderUrl}">`));
    assert.match(back.body, /id="email" name="email" type="email" autocomplete="email" value="ana@example\.com"/);
    assert.match(back.body, new RegExp(`value="${USD_BANK_TRANSFER_ID}" data-method-type="BANK_TRANSFER" checked`));
    // Choosing another method replaces the open instructions; the old page says so instead of redirecting.
    const card = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4000000000000002',
      ...CARD,
    });
    assert.equal(card.statusCode, 303);
    const old = await app.inject({ url: orderUrl });
    assert.equal(old.statusCode, 200);
    assert.match(old.body, /data-test="result-expired"/);
    assert.match(old.body, /data-test="try-again"/);
  });

  test('checkout pages are not in the API description', async (t) => {
    const { app } = await buildTestApp(t, 'sqlite');
    const res = await app.inject({ url: '/openapi.json' });
    assert.ok(!res.body.includes('/checkout/'), 'no checkout route in openapi.json');
  });
});

describe('checkout pages: payments through the form', () => {
  test('an approved card posts, redirects 303 to the order page, which shows the result', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242 4242 4242 4242',
      ...CARD,
    });
    assert.equal(res.statusCode, 303, res.body);
    const orderId = await latestOrderId(app, merchant, pref.id);
    assert.equal(res.headers.location, `/checkout/${pref.id}/orders/${orderId}`);
    const result = await app.inject({ url: String(res.headers.location) });
    assert.equal(result.statusCode, 200);
    assertPageHeaders(result, 'result');
    assert.match(result.body, /data-test="result-paid"/);
    // The order page outlives the payment (history, e-mails): it no longer names the card that paid.
    assert.ok(!withoutRandomTokens(result.body).includes('4242'), 'no card digits on the result page');
    await assertClosedForPayer(app, merchant, orderId);
  });

  test('a declined card shows the reason and a way back; the next card pays', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const declined = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4000 0000 0000 0002',
      ...CARD,
    });
    assert.equal(declined.statusCode, 303, declined.body);
    const page = await app.inject({ url: String(declined.headers.location) });
    assert.match(page.body, /data-test="result-failed"/);
    assert.match(page.body, /Your card was declined/);
    assert.match(page.body, new RegExp(`href="/checkout/${pref.id}" data-test="try-again"`));
    const again = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242424242424242',
      ...CARD,
    });
    assert.equal(again.statusCode, 303, again.body);
    const paid = await app.inject({ url: String(again.headers.location) });
    assert.match(paid.body, /data-test="result-paid"/);
  });

  test('validation errors appear next to their fields, announced, with card fields emptied', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, {
      email: 'not-an-email',
      first_name: 'Ana <Maria>',
      last_name: '',
      phone: '12',
      payment_method_id: USD_CARD_ID,
      ...WRONG_CARD,
    });
    assert.equal(res.statusCode, 400, res.body);
    assertPageHeaders(res, 'errors');
    assert.match(res.body, /<div class="error-summary" role="alert"/);
    for (const key of ['email', 'last_name', 'phone', 'card_number', 'card_expiry', 'card_cvc', 'card_holder_name']) {
      const field = new RegExp(
        `<span class="field-error" id="${key}-error" data-test="error-${key}">[^<]+</span>\\s*<input id="${key}"[^>]*aria-describedby="[^"]*${key}-error"[^>]* aria-invalid="true"`,
      );
      assert.match(res.body, field, `error next to ${key}`);
      assert.match(res.body, new RegExp(`<li><a href="#${key}">`), `summary links to ${key}`);
    }
    assert.ok(!res.body.includes('id="first_name-error"'), 'a valid field has no error');
    // What the payer typed comes back (escaped), except the card.
    assert.match(
      res.body,
      /id="first_name" name="first_name" type="text" autocomplete="given-name" value="Ana &lt;Maria&gt;"/,
    );
    assert.match(res.body, /value="not-an-email"/);
    for (const key of ['card_number', 'card_expiry', 'card_cvc', 'card_holder_name']) {
      assert.match(res.body, new RegExp(`<input id="${key}"[^>]* value=""`), `${key} is empty again`);
    }
    assert.ok(!/4242\s?4242\s?4242\s?4241/.test(res.body), 'card number not rendered back');
    assert.ok(!res.body.includes('R2D2'), 'holder name not rendered back');
    // The method stays chosen.
    assert.match(res.body, new RegExp(`value="${USD_CARD_ID}" data-method-type="CARD" checked`));
  });

  test('a missing method choice is reported on the method group', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, PAYER);
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /<fieldset id="methods" aria-describedby="payment_method_id-error">/);
    assert.match(res.body, /id="payment_method_id-error"[^>]*>Choose a payment method\.</);
  });

  test('PIX: the panel shows the copy-and-paste code, a QR and the status link; simulate closes it', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, { currency: 'BRL', amount: 50 });
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, { ...PAYER, payment_method_id: BRL_PIX_ID });
    assert.equal(res.statusCode, 303, res.body);
    const orderUrl = String(res.headers.location);
    const panel = await app.inject({ url: orderUrl, headers: { cookie: session.cookie } });
    assert.equal(panel.statusCode, 200, panel.body);
    assertPageHeaders(panel, 'pix panel');
    assert.match(panel.body, /<textarea id="pix-code" readonly rows="5" data-test="pix-payload">000201/);
    assert.match(panel.body, /<svg role="img" aria-label="Payment QR code"/);
    assert.match(panel.body, /data-copy="pix-code"[^>]* hidden>Copy<\/button>/);
    assert.match(panel.body, new RegExp(`href="${orderUrl}" data-test="check-status">Check payment status</a>`));
    assert.match(panel.body, new RegExp(`data-status-url="${orderUrl}/status"`));
    assert.match(panel.body, /data-test="simulate"/);
    const status = await app.inject({ url: `${orderUrl}/status` });
    assert.equal(status.headers['cache-control'], 'no-store');
    assert.deepEqual(status.json(), { status: 'OPENED', final: false, redirect_url: null });
    // Checking the status of an open order shows the panel again (no redirect yet).
    const recheck = await app.inject({ url: orderUrl });
    assert.equal(recheck.statusCode, 200);
    const simulated = await postForm(
      app,
      `${orderUrl}/simulate`,
      { cookie: session.cookie, token: tokenFrom(panel.body) },
      {},
    );
    assert.equal(simulated.statusCode, 303, simulated.body);
    assert.equal(simulated.headers.location, orderUrl);
    const done = await app.inject({ url: orderUrl });
    assert.match(done.body, /data-test="result-paid"/);
    assert.deepEqual((await app.inject({ url: `${orderUrl}/status` })).json(), {
      status: 'CLOSED',
      final: true,
      redirect_url: null,
    });
  });

  test('crypto, bank transfer and cash panels show their instructions', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const cases = [
      {
        pref: {},
        method: CRYPTO_USDT_ETHEREUM,
        expect: [
          /value="0x[0-9a-fA-F]{40}" class="mono" data-test="crypto-address"/,
          /value="16\.900000"/,
          /href="ethereum:0x[0-9a-fA-F]{40}@1\/transfer\?address&#61;0x[0-9a-fA-F]{40}&amp;uint256&#61;16900000" data-test="crypto-uri"/,
          /data-test="crypto-network">Ethereum</,
          /aria-label="Payment QR code"/,
        ],
      },
      {
        pref: {},
        method: USD_BANK_TRANSFER_ID,
        expect: [/data-test="bank-reference"/, /Cobro Test Bank/, /data-test="bank-amount">\$16\.90</],
      },
      {
        pref: { currency: 'MXN', amount: 200 },
        method: 'cash',
        expect: [/data-test="cash-reference">\d{16}</, /<svg[^>]*aria-label="Barcode \d+"/, /OXXO/],
      },
    ];
    for (const c of cases) {
      const pref = await createPreference(app, merchant, c.pref);
      const { res: form, session } = await open(app, `/checkout/${pref.id}`);
      const methodId =
        c.method === 'cash' ? /value="([A-Za-z0-9]{22})" data-method-type="CASH"/.exec(form.body)?.[1] : c.method;
      assert.ok(methodId, `method for ${c.method} offered`);
      const res = await postForm(app, `/checkout/${pref.id}`, session, { ...PAYER, payment_method_id: methodId });
      assert.equal(res.statusCode, 303, res.body);
      const panel = await app.inject({ url: String(res.headers.location) });
      assert.equal(panel.statusCode, 200, panel.body);
      for (const pattern of c.expect) {
        assert.match(panel.body, pattern, `${c.method}: ${pattern}`);
      }
    }
  });

  test('a live checkout has no test banner and no simulate button, and refuses simulate', async (t) => {
    const { app, cobro, createMerchant } = await buildTestApp(t, 'sqlite');
    const live = await createMerchant('live');
    await cobro.services.merchants.updateSettings(live.id, {
      bank: { bank_name: 'Live Bank', account_holder: 'Shop', account_number: '12345678', routing: '0001' },
    });
    const pref = await createPreference(app, live, { payment_method_types: ['BANK_TRANSFER'] });
    const { res: form, session } = await open(app, `/checkout/${pref.id}`);
    assert.ok(!form.body.includes('test-mode-banner'));
    const res = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_BANK_TRANSFER_ID,
    });
    assert.equal(res.statusCode, 303, res.body);
    const orderUrl = String(res.headers.location);
    const panel = await app.inject({ url: orderUrl, headers: { cookie: session.cookie } });
    assert.ok(!panel.body.includes('data-test="simulate"'), 'no simulate button in live mode');
    assert.ok(!panel.body.includes('test-mode-banner'));
    const simulated = await postForm(app, `${orderUrl}/simulate`, session, {});
    assert.equal(simulated.statusCode, 404, simulated.body);
    assert.equal((await app.inject({ url: `${orderUrl}/status` })).json().status, 'OPENED');
  });
});

describe('checkout pages: the card step', () => {
  const CARD_KEYS = ['card_number', 'card_expiry', 'card_cvc', 'card_holder_name'];

  /** The card step: its heading, the card fields shown and required, no method choice, no payer field to fill. */
  function assertCardStep(res: LightMyRequestResponse, what: string): void {
    assertPageHeaders(res, what);
    assert.match(res.body, /<title>Card details · /, what);
    assert.match(res.body, /<legend><h2 id="card-step-title">Card details<\/h2><\/legend>/, what);
    assert.match(res.body, /<fieldset class="card-fields" id="card-fields" data-test="card-fields">/, what);
    for (const key of CARD_KEYS) {
      assert.match(
        res.body,
        new RegExp(`<input id="${key}" name="${key}"[^>]* value=""[^>]* required aria-required="true"`),
        `${what}: ${key}`,
      );
    }
    assert.ok(!res.body.includes('type="radio"'), `${what}: no method choice`);
    assert.ok(!res.body.includes('id="email"'), `${what}: no payer field to fill again`);
    assert.match(res.body, /name="back" value="methods"[^>]*>Choose another payment method<\/button>/, what);
  }

  /** A checkout (USD unless told: card, bank transfer, crypto) opened as a browser would, and its form's post. */
  async function openCheckout(t: TestContext, overrides: Record<string, unknown> = {}) {
    const built = await buildTestApp(t, 'sqlite');
    const { id } = await createPreference(built.app, built.merchant, overrides);
    const { res, session } = await open(built.app, `/checkout/${id}`);
    const post = (fields: Record<string, string>) => postForm(built.app, `/checkout/${id}`, session, fields);
    return { ...built, first: res, session, pref: { id, post } };
  }

  async function openOrderId(app: FastifyInstance, merchant: TestMerchant, prefId: string): Promise<string | null> {
    const res = await app.inject({ url: `/v1/checkout_preferences/${prefId}`, headers: merchant.authHeaders });
    return (res.json() as { payment_order_id: string | null }).payment_order_id;
  }

  test('choosing Card on a page without card fields (no script) leads to the card step, details carried; paying there works', async (t) => {
    const { app, merchant, session, pref } = await openCheckout(t, { external_id: 'order-5' });
    // What a browser without the script posts: the card fields were disabled, so none is sent.
    const step = await pref.post({ ...PAYER, payment_method_id: USD_CARD_ID });
    assert.equal(step.statusCode, 200, step.body);
    assertCardStep(step, 'card step');
    assert.ok(!step.body.includes('data-test="error-summary"'), 'the card step is a step, not an error');
    assert.deepEqual(hiddenFieldsOf(step.body), { step: 'card', ...PAYER, payment_method_id: USD_CARD_ID });
    // The payer sees who pays and how before typing the card.
    assert.match(step.body, /data-test="payer">Ana Souza · ana@example\.com · \+55 11 98765 4321</);
    assert.match(step.body, /data-test="selected-method">Card</);
    assert.match(step.body, /<button type="submit" class="pay" data-test="pay-button">Pay<\/button>/);
    assert.equal(await openOrderId(app, merchant, pref.id), null, 'nothing started before the card is given');

    const paid = await postForm(
      app,
      `/checkout/${pref.id}`,
      { cookie: session.cookie, token: tokenFrom(step.body) },
      { ...hiddenFieldsOf(step.body), card_number: '4242 4242 4242 4242', ...CARD },
    );
    assert.equal(paid.statusCode, 303, paid.body);
    const orderId = await latestOrderId(app, merchant, pref.id);
    assert.equal(paid.headers.location, `/checkout/${pref.id}/orders/${orderId}`);
    await assertClosedForPayer(app, merchant, orderId);
  });

  test('a wrong card on the card step comes back there with its errors, the card never echoed', async (t) => {
    const { app, merchant, pref } = await openCheckout(t);
    const res = await pref.post({
      step: 'card',
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      ...WRONG_CARD,
    });
    assert.equal(res.statusCode, 400, res.body);
    assertCardStep(res, 'card step with errors');
    assert.match(res.body, /<div class="error-summary" role="alert"/);
    for (const key of CARD_KEYS) {
      assert.match(res.body, new RegExp(`data-test="error-${key}"`), `error next to ${key}`);
      assert.match(res.body, new RegExp(`<li><a href="#${key}">`), `summary links to ${key}`);
    }
    assert.deepEqual(hiddenFieldsOf(res.body), { step: 'card', ...PAYER, payment_method_id: USD_CARD_ID });
    assert.ok(!/4242\s?4242\s?4242\s?4241/.test(res.body), 'card number not rendered back');
    assert.ok(!res.body.includes('R2D2'), 'holder name not rendered back');
    assert.ok(!withoutRandomTokens(res.body).includes('13/99'), 'expiry not rendered back');
    assert.equal(await openOrderId(app, merchant, pref.id), null);
  });

  test('Card chosen with wrong details: the first page with those errors, none about a card not yet asked for', async (t) => {
    const { pref } = await openCheckout(t);
    const res = await pref.post({
      ...PAYER,
      email: 'not-an-email',
      last_name: '',
      payment_method_id: USD_CARD_ID,
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /data-test="error-email"/);
    assert.match(res.body, /data-test="error-last_name"/);
    assert.ok(!/data-test="error-card_/.test(res.body), 'no card error');
    assert.ok(!res.body.includes('href="#card_'), 'the summary links to no hidden field');
    // The method stays chosen; the card fields still wait for the choice.
    assert.match(res.body, new RegExp(`value="${USD_CARD_ID}" data-method-type="CARD" checked`));
    assert.match(res.body, /data-test="card-fields" data-card-on-choice hidden disabled>/);
  });

  test('wrong details posted from the card step go back to the first page, the card dropped', async (t) => {
    const { app, merchant, pref } = await openCheckout(t);
    // Only a client that edits the hidden fields can do this: the details were checked before the step.
    const res = await pref.post({
      step: 'card',
      ...PAYER,
      email: 'not-an-email',
      payment_method_id: USD_CARD_ID,
      card_number: '4242 4242 4242 4242',
      ...CARD,
    });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /<input id="email" name="email" type="email"[^>]* value="not-an-email"/);
    assert.match(res.body, /data-test="error-email"/);
    assert.ok(!/data-test="error-card_/.test(res.body), 'no card error');
    assert.ok(!/4242\s?4242/.test(res.body), 'card number not rendered back');
    assert.equal(await openOrderId(app, merchant, pref.id), null);
  });

  test('back from the card step: the first page with the details kept and the method to choose again', async (t) => {
    const { app, merchant, pref } = await openCheckout(t);
    const res = await pref.post({
      step: 'card',
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242 4242 4242 4242',
      ...CARD,
      back: 'methods',
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(res.body, /<input id="email" name="email" type="email"[^>]* value="ana@example\.com"/);
    assert.match(res.body, /<input id="last_name" name="last_name"[^>]* value="Souza"/);
    assert.ok(res.body.includes('type="radio"'), 'the methods to choose from');
    assert.ok(!/type="radio"[^>]* checked/.test(res.body), 'no method chosen yet');
    assert.ok(!res.body.includes('data-test="error-summary"'), 'no error');
    assert.ok(!/4242\s?4242/.test(res.body), 'card number not rendered back');
    assert.equal(await openOrderId(app, merchant, pref.id), null, 'nothing was paid');
  });

  test('a non-card method ignores card fields posted beside it: nothing checked, shown, tokenized or charged', async (t) => {
    const { app, merchant, cobro, pref } = await openCheckout(t, { currency: 'BRL', amount: 50 });
    // Far too long to be a card number: checking it at all would refuse the post.
    const res = await pref.post({
      ...PAYER,
      payment_method_id: BRL_PIX_ID,
      card_number: `4242424242424242${'9'.repeat(60)}`,
      card_expiry: '12/34',
      card_cvc: '737',
      card_holder_name: 'Ana Souza',
    });
    assert.equal(res.statusCode, 303, res.body);
    const orderId = await latestOrderId(app, merchant, pref.id);
    const order = await app.inject({ url: `/v1/payment_orders/${orderId}`, headers: merchant.authHeaders });
    assert.equal(order.json().payment_method_id, BRL_PIX_ID, order.body);
    assert.ok(!order.body.includes('4242'), 'no card in the order');
    const panel = await app.inject({ url: String(res.headers.location) });
    assert.match(panel.body, /data-test="pix-payload"/);
    assert.ok(!withoutRandomTokens(panel.body).includes('4242'), 'no card on the PIX page');
    const db = cobro.database.db;
    assert.deepEqual(await db.selectFrom('test_card_tokens').selectAll().execute(), [], 'no card tokenized');
    assert.deepEqual(await db.selectFrom('test_card_charges').selectAll().execute(), [], 'no card charged');
  });

  test('a card-only checkout asks for the card on its first page; a post without it is told to enter it there', async (t) => {
    const { first, pref } = await openCheckout(t, { payment_method_types: ['CARD'] });
    assert.match(first.body, /<fieldset class="card-fields" id="card-fields" data-test="card-fields">/);
    assert.match(first.body, /<input id="card_cvc"[^>]* required aria-required="true"/);
    const refused = await pref.post({ ...PAYER, payment_method_id: USD_CARD_ID });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(refused.body, /id="card_number-error" data-test="error-card_number">Enter your card details\.</);
    assert.match(refused.body, /<input id="email" name="email"/);
    assert.ok(!refused.body.includes('card-step-title'), 'no separate step');
  });
});

describe('checkout pages: CSRF', () => {
  const cardFields = { ...PAYER, payment_method_id: USD_CARD_ID, card_number: '4242424242424242', ...CARD };

  test('a post without a token, with a foreign token or without the cookie gets 403 and pays nothing', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const other = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const { session: otherBrowser } = await open(app, `/checkout/${pref.id}`);
    const { session: otherCheckout } = await open(app, `/checkout/${other.id}`, { cookie: session.cookie });
    const attempts: [string, Promise<LightMyRequestResponse>][] = [
      ['no token, no cookie', postForm(app, `/checkout/${pref.id}`, null, cardFields)],
      ['cookie but no token', postForm(app, `/checkout/${pref.id}`, { cookie: session.cookie, token: '' }, cardFields)],
      ['token but no cookie', postForm(app, `/checkout/${pref.id}`, { cookie: '', token: session.token }, cardFields)],
      [
        "another browser's token",
        postForm(app, `/checkout/${pref.id}`, { cookie: session.cookie, token: otherBrowser.token }, cardFields),
      ],
      ["another checkout's token", postForm(app, `/checkout/${pref.id}`, otherCheckout, cardFields)],
      [
        'a forged token',
        postForm(app, `/checkout/${pref.id}`, { cookie: session.cookie, token: 'A'.repeat(43) }, cardFields),
      ],
    ];
    for (const [what, attempt] of attempts) {
      const res = await attempt;
      assert.equal(res.statusCode, 403, `${what}: ${res.body}`);
      assertPageHeaders(res, what);
      assert.match(res.body, /data-test="checkout-csrf"/, what);
    }
    const prefNow = await app.inject({ url: `/v1/checkout_preferences/${pref.id}`, headers: merchant.authHeaders });
    assert.equal(prefNow.json().payment_order_id, null, 'no order was created');
  });

  test('a cross-origin post gets 403 even with a valid token; same-origin posts pass', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const foreign: Record<string, string>[] = [
      { origin: 'https://evil.example' },
      { origin: 'http://127.0.0.1:3001' },
      { origin: 'null' },
      { referer: 'https://evil.example/page' },
      { origin: 'https://evil.example', referer: `${OUR_ORIGIN}/checkout/${pref.id}` },
    ];
    for (const headers of foreign) {
      const res = await postForm(app, `/checkout/${pref.id}`, session, cardFields, headers);
      assert.equal(res.statusCode, 403, `${JSON.stringify(headers)}: ${res.body}`);
    }
    const simulate = await postForm(
      app,
      `/checkout/${pref.id}/orders/AAAAAAAAAAAAAAAAAAAAAA/simulate`,
      session,
      {},
      {
        origin: 'https://evil.example',
      },
    );
    assert.equal(simulate.statusCode, 403);
    // The same server reached by its own host name is same-origin too.
    const byHost = await postForm(app, `/checkout/${pref.id}`, session, cardFields, {
      origin: 'http://checkout.internal:8080',
      host: 'checkout.internal:8080',
    });
    assert.equal(byHost.statusCode, 303, byHost.body);
  });

  test('the simulate button is CSRF protected', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_BANK_TRANSFER_ID,
    });
    const orderUrl = String(res.headers.location);
    const forged = await postForm(app, `${orderUrl}/simulate`, null, {});
    assert.equal(forged.statusCode, 403);
    assert.equal((await app.inject({ url: `${orderUrl}/status` })).json().status, 'OPENED');
  });

  test('a form opened before a restart is still accepted after it (the token key survives)', async (t) => {
    const before = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(before.app, before.merchant);
    const { session } = await open(before.app, `/checkout/${pref.id}`);
    await before.cobro.close();
    // A new process on the same database and SECRETS_KEY: a restart, or another instance.
    const after = await buildTestApp(t, 'sqlite', { databaseUrl: before.config.databaseUrl });
    const res = await postForm(after.app, `/checkout/${pref.id}`, session, cardFields);
    assert.equal(res.statusCode, 303, res.body);
    const read = await after.app.inject({
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: before.merchant.authHeaders,
    });
    assert.equal(read.json().status, 'PAID');
  });

  test('with an https PUBLIC_URL the cookie is Secure and HSTS is sent', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite', { env: { PUBLIC_URL: 'https://pay.example.com' } });
    const pref = await createPreference(app, merchant);
    const res = await app.inject({ url: `/checkout/${pref.id}` });
    assert.match(String(res.headers['set-cookie']), /; HttpOnly; SameSite=Strict; Secure$/);
    assert.equal(res.headers['strict-transport-security'], 'max-age=31536000');
  });
});

describe('checkout pages: payer redirects (R18, payer half)', () => {
  const SUCCESS = 'https://shop.example/return?order=42&sig=a%2Fb&empty=&dup=1&dup=2';
  const ERROR = 'https://shop.example/failed?order=42';

  test('a card result is a 303 to the stored URL with the merchant query kept and our parameters added', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, {
      custom_urls: { success_payment_redirect: SUCCESS, error_payment_redirect: ERROR },
    });
    const { res: form, session } = await open(app, `/checkout/${pref.id}`);
    // The page may post to the merchant's origin only because that is where its 303 goes.
    assert.match(String(form.headers['content-security-policy']), /form-action 'self' https:\/\/shop\.example;/);
    const declined = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4000000000000002',
      ...CARD,
    });
    assert.equal(declined.statusCode, 303, declined.body);
    const declinedId = await latestOrderId(app, merchant, pref.id);
    assert.equal(
      declined.headers.location,
      `${ERROR}&checkout_preference_id=${pref.id}&payment_order_id=${declinedId}&status=REJECTED`,
    );
    const paid = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242424242424242',
      ...CARD,
    });
    const paidId = await latestOrderId(app, merchant, pref.id);
    assert.equal(paid.statusCode, 303, paid.body);
    assert.equal(
      paid.headers.location,
      `${SUCCESS}&checkout_preference_id=${pref.id}&payment_order_id=${paidId}&status=CLOSED`,
    );
    assert.ok(!paid.body.includes('shop.example'), 'the target is never put in a body');
    // Coming back to the order page later redirects the same way; its status says where.
    const again = await app.inject({ url: `/checkout/${pref.id}/orders/${paidId}` });
    assert.equal(again.statusCode, 303);
    assert.equal(again.headers.location, paid.headers.location);
    const status = await app.inject({ url: `/checkout/${pref.id}/orders/${paidId}/status` });
    assert.deepEqual(status.json(), { status: 'CLOSED', final: true, redirect_url: paid.headers.location });
  });

  test('an async order that closes redirects the payer when the status is checked', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, { custom_urls: { success_payment_redirect: SUCCESS } });
    const { session } = await open(app, `/checkout/${pref.id}`);
    const res = await postForm(app, `/checkout/${pref.id}`, session, {
      ...PAYER,
      payment_method_id: USD_BANK_TRANSFER_ID,
    });
    const orderUrl = String(res.headers.location);
    assert.match(orderUrl, /^\/checkout\/[A-Za-z0-9]{22}\/orders\/[A-Za-z0-9]{22}$/);
    const orderId = orderUrl.split('/').pop() ?? '';
    const confirmed = await app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${orderId}/confirm`,
      headers: merchant.authHeaders,
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    const check = await app.inject({ url: orderUrl });
    assert.equal(check.statusCode, 303);
    assert.equal(
      check.headers.location,
      `${SUCCESS}&checkout_preference_id=${pref.id}&payment_order_id=${orderId}&status=CLOSED`,
    );
  });

  test('no checkout route takes a redirect target from the query string', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const evil = 'https://evil.example/phish';
    const query = new URLSearchParams({
      redirect: evil,
      redirect_url: evil,
      return_url: evil,
      next: evil,
      success_url: evil,
      success_payment_redirect: evil,
      error_payment_redirect: evil,
      continue: evil,
    }).toString();
    // Without stored URLs: our own result page.
    const plain = await createPreference(app, merchant);
    const { session } = await open(app, `/checkout/${plain.id}?${query}`);
    const res = await postForm(app, `/checkout/${plain.id}?${query}`, session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242424242424242',
      ...CARD,
      redirect: evil,
      success_payment_redirect: evil,
    });
    assert.equal(res.statusCode, 303);
    assert.match(String(res.headers.location), /^\/checkout\/[A-Za-z0-9]{22}\/orders\/[A-Za-z0-9]{22}$/);
    const result = await app.inject({ url: `${res.headers.location}?${query}` });
    assert.equal(result.statusCode, 200);
    // The language switcher keeps the page's own query on its links (same path, our origin); nothing else uses it.
    const switcher = /<nav class="languages"[\s\S]*?<\/nav>/;
    assert.match(result.body, switcher);
    for (const href of result.body.match(switcher)?.[0].match(/href="[^"]*"/g) ?? []) {
      assert.ok(href.startsWith(`href="${res.headers.location}?`), href);
    }
    assert.ok(!result.body.replace(switcher, '').includes('evil.example'));
    const status = await app.inject({ url: `${res.headers.location}/status?${query}` });
    assert.equal(status.json().redirect_url, null);
    // With stored URLs: exactly the stored one.
    const withUrls = await createPreference(app, merchant, { custom_urls: { success_payment_redirect: SUCCESS } });
    const second = await open(app, `/checkout/${withUrls.id}?${query}`);
    const paid = await postForm(app, `/checkout/${withUrls.id}?${query}`, second.session, {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242424242424242',
      ...CARD,
    });
    assert.ok(String(paid.headers.location).startsWith(`${SUCCESS}&checkout_preference_id=`), paid.headers.location);
    assert.ok(!String(paid.headers.location).includes('evil'));
  });
});

/** Tag names a checkout page may contain; anything else came from data that was not escaped. */
const ALLOWED_TAGS = new Set([
  'html',
  'head',
  'meta',
  'title',
  'link',
  'script',
  'body',
  'p',
  'main',
  // Whom the payer pays: the merchant's business profile (a header, and an img when it has a logo).
  'header',
  'img',
  // The language switcher.
  'nav',
  'section',
  'h1',
  'h2',
  'span',
  'strong',
  'dl',
  'dt',
  'dd',
  'form',
  'input',
  'fieldset',
  'legend',
  'div',
  'label',
  'button',
  'ul',
  'li',
  'a',
  'footer',
  'noscript',
  'textarea',
  'svg',
  'path',
  'rect',
  'g',
]);

function assertInert(body: string, payload: string, what: string): void {
  if (/[<>"'&`]/.test(payload)) {
    assert.ok(!body.includes(payload), `${what}: payload appears unescaped: ${payload}`);
  }
  for (const m of body.matchAll(/<\/?([a-zA-Z][a-zA-Z0-9-]*)/g)) {
    const tag = (m[1] ?? '').toLowerCase();
    assert.ok(ALLOWED_TAGS.has(tag), `${what}: unexpected <${tag}> for payload ${payload}`);
  }
  assert.equal((body.match(/<script\b/gi) ?? []).length, 1, `${what}: only our script tag`);
  assert.equal((body.match(/<meta\b/gi) ?? []).length, 3, `${what}: only our meta tags`);
  assert.ok(!/<[^>]*\son[a-z]+\s*=/i.test(body), `${what}: an event handler attribute`);
  assert.ok(!/(?:href|src|action|data)\s*=\s*["']?\s*javascript:/i.test(body), `${what}: a javascript: URL`);
}

describe('checkout pages: a finished checkout keeps the payer private', () => {
  const GIVEN_PAYER = {
    email: 'marisol.quintanilla@payer.example',
    first_name: 'Marisol',
    last_name: 'Quintanilla',
    phone: '+56 9 8765 4321',
  };
  const TRACES = ['Marisol', 'Quintanilla', 'payer.example', '+56987654321', '8765 4321', '4242', 'Visa'];

  function assertReceiptOnly(res: LightMyRequestResponse, what: string): void {
    assert.match(res.body, /data-test="title">Ceramic teapot</, `${what}: ${res.body}`);
    assert.match(res.body, /data-test="amount"><span class="hint">Total<\/span> \$16\.90</, `${what}: ${res.body}`);
    assert.match(res.body, /data-test="external-id">INV-2025-0042</, `${what}: ${res.body}`);
    assert.ok(!res.body.includes('data-test="payer"'), `${what}: a payer line: ${res.body}`);
    for (const trace of TRACES) {
      assert.ok(!withoutRandomTokens(res.body).includes(trace), `${what}: holds ${trace}: ${res.body}`);
    }
  }

  async function assertStatusJson(app: FastifyInstance, prefId: string, orderId: string, status: string) {
    const res = await app.inject({ url: `/checkout/${prefId}/orders/${orderId}/status` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { status, final: true, redirect_url: null });
  }

  test('paid, refunded and post-after-payment pages show title, amount, status and reference, never the payer or the card', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, {
      title: 'Ceramic teapot',
      external_id: 'INV-2025-0042',
      payer: GIVEN_PAYER,
    });
    const { res: form, session } = await open(app, `/checkout/${pref.id}`);
    assert.match(
      form.body,
      /data-test="payer">Marisol Quintanilla · marisol\.quintanilla@payer\.example · \+56987654321</,
    );
    const paidByCard = await postForm(app, `/checkout/${pref.id}`, session, {
      payment_method_id: USD_CARD_ID,
      card_number: '4242 4242 4242 4242',
      ...CARD,
    });
    assert.equal(paidByCard.statusCode, 303, paidByCard.body);
    const orderId = await latestOrderId(app, merchant, pref.id);

    const paid = await app.inject({ url: `/checkout/${pref.id}` });
    assert.equal(paid.statusCode, 200, paid.body);
    assert.match(paid.body, /data-test="checkout-paid"/);
    assertReceiptOnly(paid, 'paid checkout');
    const result = await app.inject({ url: `/checkout/${pref.id}/orders/${orderId}` });
    assert.match(result.body, /data-test="result-paid"/);
    assertReceiptOnly(result, 'paid order');
    // The form that was open before the payment, posted again: the closed page, still the receipt only.
    const late = await postForm(app, `/checkout/${pref.id}`, session, { payment_method_id: USD_CARD_ID, ...CARD });
    assert.equal(late.statusCode, 409, late.body);
    assertReceiptOnly(late, 'post after payment');
    await assertStatusJson(app, pref.id, orderId, 'CLOSED');

    const refund = await app.inject({
      method: 'POST',
      url: `/v1/payment_orders/${orderId}/refunds`,
      headers: merchant.authHeaders,
      payload: {},
    });
    assert.equal(refund.statusCode, 200, refund.body);
    const refunded = await app.inject({ url: `/checkout/${pref.id}/orders/${orderId}` });
    assert.match(refunded.body, /data-test="result-refunded"/);
    assertReceiptOnly(refunded, 'refunded order');
    await assertStatusJson(app, pref.id, orderId, 'REFUNDED');
  });

  test('a rejected order page shows the reason and the receipt, never the payer', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    const pref = await createPreference(app, merchant, {
      title: 'Ceramic teapot',
      external_id: 'INV-2025-0042',
      payer: GIVEN_PAYER,
    });
    const order = await payByTestHelper(app, merchant, pref.id, {
      payment_method_id: USD_CARD_ID,
      outcome: 'REJECTED',
    });
    assert.equal(order.status, 'REJECTED');
    const rejected = await app.inject({ url: `/checkout/${pref.id}/orders/${order.id}` });
    assert.match(rejected.body, /data-test="result-failed"/);
    assert.match(rejected.body, /data-test="try-again"/, 'the checkout itself can still be paid');
    assertReceiptOnly(rejected, 'rejected order');
    await assertStatusJson(app, pref.id, order.id, 'REJECTED');
  });
});

describe('checkout pages: XSS (R20, server side)', () => {
  test('40 payloads in title, payer names and external_id render escaped on every page', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite');
    for (const payload of XSS_PAYLOADS) {
      const pref = await createPreference(app, merchant, {
        title: payload,
        external_id: payload,
        payer: { first_name: payload, last_name: payload },
      });
      const form = await app.inject({ url: `/checkout/${pref.id}` });
      assert.equal(form.statusCode, 200, form.body);
      assertInert(form.body, payload, 'form');
      // The same text reaches the validation page, the result page and the paid page.
      const session = { cookie: cookieFrom(form) ?? '', token: tokenFrom(form.body) };
      const invalid = await postForm(app, `/checkout/${pref.id}`, session, {
        email: payload,
        phone: payload,
        payment_method_id: payload,
      });
      assert.equal(invalid.statusCode, 400, invalid.body);
      assertInert(invalid.body, payload, 'errors');
      // The card step shows the payer the merchant gave, and carries what the payer typed.
      const cardStep = await postForm(app, `/checkout/${pref.id}`, session, {
        email: 'ana@example.com',
        payment_method_id: USD_CARD_ID,
      });
      assert.equal(cardStep.statusCode, 200, cardStep.body);
      assert.match(cardStep.body, /id="card-step-title"/);
      assertInert(cardStep.body, payload, 'card step');
      const order = await payByTestHelper(app, merchant, pref.id);
      const result = await app.inject({ url: `/checkout/${pref.id}/orders/${order.id}` });
      assertInert(result.body, payload, 'result');
      const paid = await app.inject({ url: `/checkout/${pref.id}` });
      assertInert(paid.body, payload, 'paid');
    }
  });
});
