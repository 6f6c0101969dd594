import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { createPreference } from '../support/builders.ts';
import { cookieFrom, OUR_ORIGIN, postForm, tokenFrom } from '../support/page-forms.ts';
import { pixSubscriptionCheckout } from '../support/payments.ts';
import type { TestApp, TestMerchant } from '../support/test-app.ts';
import { buildTestApp, describeBackends } from '../support/test-app.ts';
import { BRL_PIX_ID, USD_CARD_ID } from './helpers.ts';

/**
 * Every payer page speaks one language, the payer's: Accept-Language, overridden by the switcher
 * on the page, whose choice is kept in the `cobro_lang` cookie. The e-mails about a subscription
 * speak the language the payer subscribed in.
 */

const DAY_MS = 86_400_000;
const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza' };

/** The cookie pair (`name=value`) a response sets under `name`, or null. */
function setCookie(res: LightMyRequestResponse, name: string): string | null {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  return all.find((c) => c.startsWith(`${name}=`)) ?? null;
}

/** Follows a switcher link as a browser would: the 303 sets the cookie, the page comes back without `lang`. */
async function choose(app: FastifyInstance, url: string): Promise<{ cookie: string; location: string }> {
  const res = await app.inject({ url });
  assert.equal(res.statusCode, 303, res.body);
  const set = setCookie(res, 'cobro_lang');
  assert.ok(set, `no language cookie from ${url}`);
  return { cookie: set.split(';')[0] ?? '', location: String(res.headers.location) };
}

describe('the language switcher of the payer pages', () => {
  test('a switcher link remembers the choice for a year and leads back to the page, its other parameters kept', async (t) => {
    const { app, merchant } = await buildTestApp(t);
    const pref = await createPreference(app, merchant);
    const res = await app.inject({ url: `/checkout/${pref.id}?utm_source=mail&lang=pt&ref=a%2Fb` });
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `/checkout/${pref.id}?utm_source=mail&ref=a%2Fb`);
    assert.equal(setCookie(res, 'cobro_lang'), 'cobro_lang=pt; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax');

    // The choice wins over the browser's header, on this page and the next.
    const page = await app.inject({
      url: String(res.headers.location),
      headers: { cookie: 'cobro_lang=pt', 'accept-language': 'en-US,en;q=0.9' },
    });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<html lang="pt-BR">/);
    assert.match(page.body, /<label for="email">E-mail<\/label>/);
    assert.match(String(page.headers.vary), /Cookie/);
    // Each choice named in its own language, the current one marked; its links keep the page's parameters.
    assert.match(
      page.body,
      new RegExp(
        `<a href="/checkout/${pref.id}\\?utm_source&#61;mail&amp;ref&#61;a%2Fb&amp;lang&#61;es" hreflang="es" lang="es" data-test="language-es">Español</a>`,
      ),
    );
    assert.match(page.body, /lang="pt" data-test="language-pt" aria-current="true">Português</);
    assert.match(page.body, /lang="en" data-test="language-en">English</);

    // A language we do not speak sets nothing; the page comes back without the parameter all the same.
    const unknown = await app.inject({ url: `/checkout/${pref.id}?lang=fr` });
    assert.equal(unknown.statusCode, 303);
    assert.equal(unknown.headers.location, `/checkout/${pref.id}`);
    assert.equal(setCookie(unknown, 'cobro_lang'), null);
  });

  test('with an https PUBLIC_URL the language cookie is Secure', async (t) => {
    const { app, merchant } = await buildTestApp(t, 'sqlite', { env: { PUBLIC_URL: 'https://pay.example.com' } });
    const pref = await createPreference(app, merchant);
    const res = await app.inject({ url: `/checkout/${pref.id}?lang=es` });
    assert.match(String(setCookie(res, 'cobro_lang')), /; SameSite=Lax; Secure$/);
  });

  test('the language cookie leaves the checkout form and its CSRF protection working', async (t) => {
    const { app, merchant } = await buildTestApp(t);
    const pref = await createPreference(app, merchant);
    const { cookie: lang } = await choose(app, `/checkout/${pref.id}?lang=es`);
    const form = await app.inject({ url: `/checkout/${pref.id}`, headers: { cookie: lang } });
    const csrf = cookieFrom(form);
    assert.ok(csrf?.startsWith('cobro_csrf='), 'the form still sets its own cookie');
    const session = { cookie: `${lang}; ${csrf}`, token: tokenFrom(form.body) };
    const fields = {
      ...PAYER,
      payment_method_id: USD_CARD_ID,
      card_number: '4242424242424242',
      card_expiry: '12/34',
      card_cvc: '737',
      card_holder_name: 'Ana Souza',
    };
    const refused = await postForm(app, `/checkout/${pref.id}`, { ...session, token: 'x'.repeat(43) }, fields);
    assert.equal(refused.statusCode, 403);
    assert.match(refused.body, /<html lang="es">/);
    assert.match(refused.body, /Este formulario venció/);
    // The switcher of a page shown in answer to a post leads to the checkout's own page.
    assert.match(refused.body, new RegExp(`href="/checkout/${pref.id}\\?lang&#61;pt"`));
    const paid = await postForm(app, `/checkout/${pref.id}`, session, fields);
    assert.equal(paid.statusCode, 303, paid.body);
    const result = await app.inject({ url: String(paid.headers.location), headers: { cookie: session.cookie } });
    assert.match(result.body, /data-test="result-paid"/);
    assert.match(result.body, /<h1 id="result-title">Pago recibido<\/h1>/);
  });

  test('the choice holds on every payer page: plan links, subscription pages, the test mailbox', async (t) => {
    const { app, merchant } = await buildTestApp(t);
    const { cookie } = await choose(app, '/l/AAAAAAAAAAAAAAAAAAAAAA?lang=pt');
    const link404 = await app.inject({ url: '/l/AAAAAAAAAAAAAAAAAAAAAA', headers: { cookie } });
    assert.equal(link404.statusCode, 404);
    assert.match(link404.body, /<html lang="pt-BR">/);
    assert.match(link404.body, /Plano não encontrado/);

    const sub404 = await app.inject({ url: '/subscriptions/AAAAAAAAAAAAAAAAAAAAAA?sig=x', headers: { cookie } });
    assert.equal(sub404.statusCode, 404);
    assert.match(sub404.body, /<html lang="pt-BR">/);
    assert.match(sub404.body, /Assinatura não encontrada/);
    // A subscription page's switcher keeps the link's signature.
    assert.match(sub404.body, /href="\/subscriptions\/AAAAAAAAAAAAAAAAAAAAAA\?sig&#61;x&amp;lang&#61;es"/);
    const switched = await choose(app, '/subscriptions/AAAAAAAAAAAAAAAAAAAAAA?sig=x&lang=es');
    assert.equal(switched.location, '/subscriptions/AAAAAAAAAAAAAAAAAAAAAA?sig=x');

    const link = await app.inject({ url: '/v1/test_helpers/mailbox_link', headers: merchant.authHeaders });
    const mailbox = new URL(String(link.json().url));
    const page = await app.inject({ url: `${mailbox.pathname}${mailbox.search}`, headers: { cookie } });
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /<html lang="pt-BR">/);
    assert.match(page.body, /Caixa de entrada de teste/);
  });

  test('the region for money comes from the header when it names the chosen language', async (t) => {
    const { app, merchant } = await buildTestApp(t);
    const pesos = await createPreference(app, merchant, { currency: 'ARS', amount: 1234.5 });
    const amountOf = async (headers: Record<string, string>) => {
      const res = await app.inject({ url: `/checkout/${pesos.id}`, headers });
      return /data-test="amount"><span class="hint">[^<]*<\/span> ([^<]*)</.exec(res.body)?.[1];
    };
    const argentine = new Intl.NumberFormat('es-AR', { style: 'currency', currency: 'ARS' }).format(1234.5);
    assert.equal(await amountOf({ cookie: 'cobro_lang=es', 'accept-language': 'pt-BR,es-AR;q=0.5' }), argentine);
    // English chosen by a reader whose header names only Spanish: English, with no region of its own.
    assert.equal(
      await amountOf({ cookie: 'cobro_lang=en', 'accept-language': 'es-AR' }),
      new Intl.NumberFormat('en-AR', { style: 'currency', currency: 'ARS' }).format(1234.5),
    );
  });
});

/**
 * A payer subscribes on the checkout page (PIX, 30 BRL a month), in whatever language their
 * browser asks for, and pays; then the renewal opens and its e-mail is written.
 */
async function subscribeOnPage(ctx: TestApp, headers: Record<string, string>) {
  const { app, merchant } = ctx;
  const pref = await pixSubscriptionCheckout(app, merchant);
  const form = await app.inject({ url: `/checkout/${pref.id}`, headers });
  assert.equal(form.statusCode, 200, form.body);
  const csrf = cookieFrom(form);
  assert.ok(csrf);
  const session = { cookie: [headers.cookie, csrf].filter(Boolean).join('; '), token: tokenFrom(form.body) };
  const posted = await postForm(
    app,
    `/checkout/${pref.id}`,
    session,
    { ...PAYER, payment_method_id: BRL_PIX_ID },
    { origin: OUR_ORIGIN, ...(headers['accept-language'] ? { 'accept-language': headers['accept-language'] } : {}) },
  );
  assert.equal(posted.statusCode, 303, posted.body);
  const orderId = String(posted.headers.location).split('/').pop();
  const confirmed = await app.inject({
    method: 'POST',
    url: `/v1/test_helpers/payment_orders/${orderId}/confirm`,
    headers: merchant.authHeaders,
  });
  assert.equal(confirmed.statusCode, 200, confirmed.body);
  const recId = String(confirmed.json().recurrent_payment_id);
  return { recId };
}

/** Lets the subscription's renewal open (its notice goes out 72 h before it is due) and returns its e-mail. */
async function renewalMail(ctx: TestApp, merchant: TestMerchant, recId: string) {
  const rec = await ctx.app.inject({ url: `/v1/recurrent_payments/${recId}`, headers: merchant.authHeaders });
  ctx.clock.advance(Date.parse(String(rec.json().next_payment_date)) - ctx.clock.now().getTime() - 2 * DAY_MS);
  await ctx.cobro.runJobs();
  const mails = await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: merchant.authHeaders });
  const [mail] = mails.json().data as { subject: string; text: string }[];
  assert.ok(mail, mails.body);
  const orders = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${recId}&status=OPENED`,
    headers: merchant.authHeaders,
  });
  const renewal = orders.json().data[0] as { payment_instructions: { expires_at: string; pix_payload: string } };
  assert.ok(renewal, orders.body);
  return { mail, renewal };
}

describeBackends('renewal e-mails in the payer’s language', (build) => {
  test('a payer who subscribed on the Portuguese page is written to in Portuguese, money and date as in Brazil', async (t) => {
    const ctx = await build(t);
    const { recId } = await subscribeOnPage(ctx, { 'accept-language': 'pt-BR,pt;q=0.9' });
    const { mail, renewal } = await renewalMail(ctx, ctx.merchant, recId);
    assert.match(mail.subject, /^Pagamento pendente: Revista Mensal \(Merchant [0-9a-f]{6}\)$/);
    const lines = mail.text.split('\n');
    assert.equal(lines[0], 'Olá, Ana,');
    const reais = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(30);
    const due = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
      new Date(renewal.payment_instructions.expires_at),
    );
    assert.ok(
      lines.includes(`Sua assinatura "Revista Mensal" será renovada: ${reais}, com vencimento em ${due} UTC.`),
      mail.text,
    );
    assert.ok(lines.includes('Pague com PIX colando este código no app do seu banco:'), mail.text);
    assert.ok(lines.includes(renewal.payment_instructions.pix_payload), 'the BR Code is the wire payload, unchanged');
    assert.ok(lines.some((l) => /^Gerencie ou cancele sua assinatura: http:\/\/\S+\/subscriptions\//.test(l)));
    assert.doesNotMatch(
      mail.text.replace(/https?:\/\/\S+/g, ''),
      /\b(Payment|subscription|Hello|Manage|due)\b/,
      'no English left in the mail (links aside)',
    );
  });

  test('the language chosen with the switcher is the one the e-mails speak, whatever the browser asks for', async (t) => {
    const ctx = await build(t);
    const { recId } = await subscribeOnPage(ctx, { cookie: 'cobro_lang=es', 'accept-language': 'en-US' });
    const { mail } = await renewalMail(ctx, ctx.merchant, recId);
    assert.match(mail.subject, /^Pago pendiente: Revista Mensal/);
    assert.equal(mail.text.split('\n')[0], 'Hola, Ana:');
    // Reais as a Spanish reader writes the currency at home.
    assert.ok(mail.text.includes(new Intl.NumberFormat('es-BR', { style: 'currency', currency: 'BRL' }).format(30)));
  });

  test('a subscription made before languages were kept is written to in English', async (t) => {
    const ctx = await build(t);
    const { recId } = await subscribeOnPage(ctx, { 'accept-language': 'pt-BR' });
    await ctx.cobro.database.db
      .updateTable('recurrent_payments')
      .set({ payer_language: null })
      .where('id', '=', recId)
      .execute();
    const { mail } = await renewalMail(ctx, ctx.merchant, recId);
    assert.match(mail.subject, /^Payment due: Revista Mensal/);
    assert.equal(mail.text.split('\n')[0], 'Hello Ana,');
  });
});
