import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { PLAN_LINK_RATE_LIMIT } from '../../src/web/links/links.plugin.ts';
import { createPaymentLink } from '../support/builders.ts';
import type { TestMerchant } from '../support/test-app.ts';
import { BANK_DETAILS, describeBackends } from '../support/test-app.ts';
import { get, UNKNOWN_ID } from './helpers.ts';

/**
 * The public link of a subscription plan, `/l/{payment_link_id}`: each opening makes a SUBSCRIPTION
 * checkout for the plan through the API's own creation and sends the payer there (303). See
 * docs/subscriptions.md, "Public plan links".
 */

/** PUBLIC_URL of the test harness. */
const PUBLIC_URL = 'http://127.0.0.1:3000';
const CHECKOUT_URL = new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/checkout/([A-Za-z0-9]{22})$`);
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

type Preference = {
  id: string;
  type: string;
  status: string;
  amount: number;
  currency: string;
  title: string;
  origin: string;
  payment_link_id: string | null;
  user_id: string;
  checkout_url: string;
};

function open(
  app: FastifyInstance,
  linkId: string,
  options: { method?: 'GET' | 'HEAD' | 'POST'; headers?: Record<string, string>; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: options.method ?? 'GET',
    url: `/l/${linkId}`,
    headers: { 'user-agent': BROWSER, ...options.headers },
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

/** The checkout a 303 leads to: its preference id, after checking the redirect itself. */
function checkoutOf(res: LightMyRequestResponse): string {
  assert.equal(res.statusCode, 303, res.body);
  const id = CHECKOUT_URL.exec(String(res.headers.location))?.[1];
  assert.ok(id, `303 to a checkout_url: ${String(res.headers.location)}`);
  return id;
}

async function preferences(app: FastifyInstance, merchant: TestMerchant): Promise<Preference[]> {
  const res = await get(app, merchant, '/v1/checkout_preferences?limit=100');
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { data: Preference[] }).data;
}

/** The cookie a response set, as a browser would send it back (`name=value`). */
function cookieFrom(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  assert.ok(first, 'a cookie is set');
  return first.split(';')[0] ?? '';
}

/** The checkout pages' security headers, on every answer of the link (redirects and pages alike). */
function assertSecurityHeaders(res: LightMyRequestResponse, what: string): void {
  assert.equal(res.headers['cache-control'], 'no-store', what);
  assert.equal(res.headers['referrer-policy'], 'strict-origin', what);
  assert.equal(res.headers['x-content-type-options'], 'nosniff', what);
  assert.equal(res.headers['x-frame-options'], 'DENY', what);
  const csp = String(res.headers['content-security-policy'] ?? '');
  assert.match(csp, /default-src 'none'/, `${what}: ${csp}`);
  assert.match(csp, /frame-ancestors 'none'/, `${what}: ${csp}`);
  assert.match(csp, /script-src 'nonce-[A-Za-z0-9_-]{43}'/, `${what}: ${csp}`);
}

function assertHtmlPage(res: LightMyRequestResponse, status: number, dataTest: string, what: string): void {
  assert.equal(res.statusCode, status, `${what}: ${res.body.slice(0, 300)}`);
  assert.equal(res.headers['content-type'], 'text/html; charset=utf-8', what);
  assert.match(res.body, new RegExp(`data-test="${dataTest}"`), `${what}: ${res.body.slice(0, 600)}`);
  assertSecurityHeaders(res, what);
}

describeBackends('GET /l/{payment_link_id}', (build) => {
  test('sends the payer with a 303 to a new SUBSCRIPTION checkout of the plan, which the API lists for the merchant', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant, { title: 'Gold plan', amount: 9.99, currency: 'USD' });

    const res = await open(app, plan.id);
    const prefId = checkoutOf(res);
    assertSecurityHeaders(res, '303');
    assert.equal(res.body, '');

    const read = await get(app, merchant, `/v1/checkout_preferences/${prefId}`);
    assert.equal(read.statusCode, 200, read.body);
    const pref = read.json() as Preference;
    assert.equal(pref.type, 'SUBSCRIPTION', read.body);
    assert.equal(pref.status, 'OPEN', read.body);
    assert.equal(pref.payment_link_id, plan.id, read.body);
    assert.equal(pref.amount, 9.99, read.body);
    assert.equal(pref.currency, 'USD', read.body);
    assert.equal(pref.title, 'Gold plan', read.body);
    assert.equal(pref.origin, 'PAYMENT_LINK', read.body);
    assert.equal(pref.user_id, merchant.id, read.body);
    assert.equal(pref.checkout_url, res.headers.location);
    assert.deepEqual(
      (await preferences(app, merchant)).map((p) => p.id),
      [prefId],
    );

    // The checkout it leads to is the plan's, ready to be paid.
    const page = await app.inject({ method: 'GET', url: `/checkout/${prefId}` });
    assert.equal(page.statusCode, 200, page.body.slice(0, 300));
    assert.match(page.body, /data-test="title">Gold plan</);
    assert.match(page.body, /data-test="pay-button"/);
  });

  test("the plan's API record gives its public link as public_url", async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant);
    assert.equal(plan.public_url, `${PUBLIC_URL}/l/${plan.id}`);
    const read = await get(app, merchant, `/v1/payment_links/${plan.id}`);
    assert.equal(read.json().public_url, `${PUBLIC_URL}/l/${plan.id}`, read.body);
    const list = await get(app, merchant, '/v1/payment_links');
    assert.equal(list.json().data[0].public_url, `${PUBLIC_URL}/l/${plan.id}`, list.body);
  });

  test('each payer gets a checkout of their own; the same browser opening the link again goes back to its checkout', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant);

    const first = await open(app, plan.id);
    const firstId = checkoutOf(first);
    const cookie = cookieFrom(first);
    const setCookie = String(first.headers['set-cookie']);
    assert.match(setCookie, new RegExp(`; Path=/l/${plan.id}; `), setCookie);
    assert.match(setCookie, /; HttpOnly; SameSite=Lax/, setCookie);
    assert.match(setCookie, /; Max-Age=300;/, setCookie);

    // Another payer (no cookie): another checkout.
    const other = checkoutOf(await open(app, plan.id));
    assert.notEqual(other, firstId);

    // The first browser again, within minutes: the same checkout, nothing new created.
    const again = await open(app, plan.id, { headers: { cookie } });
    assert.equal(checkoutOf(again), firstId);
    assert.equal((await preferences(app, merchant)).length, 2);

    // A cookie edited by hand (another checkout's id) is ignored: a new checkout.
    const forged = cookie.replace(firstId, other);
    const fresh = checkoutOf(await open(app, plan.id, { headers: { cookie: forged } }));
    assert.ok(![firstId, other].includes(fresh), 'a forged cookie leads to a new checkout');

    // Once the plan is edited, the old checkout sells the old version: the browser gets one of the new version.
    const edit = await app.inject({
      method: 'POST',
      url: `/v1/payment_links/${plan.id}`,
      headers: merchant.authHeaders,
      payload: { amount: 12.5 },
    });
    assert.equal(edit.statusCode, 200, edit.body);
    const afterEdit = checkoutOf(await open(app, plan.id, { headers: { cookie } }));
    assert.notEqual(afterEdit, firstId);
    const pref = (await get(app, merchant, `/v1/checkout_preferences/${afterEdit}`)).json() as Preference;
    assert.equal(pref.amount, 12.5);
  });

  test('a paid checkout is not reused: the same browser opening the link again gets a new one', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant);
    const first = await open(app, plan.id);
    const firstId = checkoutOf(first);
    const paid = await app.inject({
      method: 'POST',
      url: `/v1/test_helpers/checkout_preferences/${firstId}/pay`,
      headers: merchant.authHeaders,
      payload: {},
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const again = checkoutOf(await open(app, plan.id, { headers: { cookie: cookieFrom(first) } }));
    assert.notEqual(again, firstId);
  });

  test('an archived plan answers 410 with a page saying it is no longer offered, in the payer language', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant, { title: 'Plano <Ouro>' });
    const archived = await app.inject({
      method: 'POST',
      url: `/v1/payment_links/${plan.id}/archive`,
      headers: merchant.authHeaders,
    });
    assert.equal(archived.statusCode, 200, archived.body);

    const cases: [string | undefined, string, string][] = [
      [undefined, 'en', 'This plan is no longer offered'],
      ['es-AR,es;q=0.9', 'es', 'Este plan ya no se ofrece'],
      ['pt-BR,pt;q=0.9,en;q=0.8', 'pt-BR', 'Este plano não é mais oferecido'],
    ];
    for (const [language, htmlLang, heading] of cases) {
      const res = await open(app, plan.id, { headers: language ? { 'accept-language': language } : {} });
      assertHtmlPage(res, 410, 'plan-link-archived', `archived (${htmlLang})`);
      assert.match(res.body, new RegExp(`<html lang="${htmlLang}">`));
      assert.ok(res.body.includes(`<h1 id="state-title">${heading}</h1>`), res.body);
      // The plan's title, escaped like everything a merchant wrote.
      assert.ok(res.body.includes('Plano &lt;Ouro&gt;'), res.body);
      assert.ok(!res.body.includes('<Ouro>'));
      assert.equal(res.headers['set-cookie'], undefined);
    }
    assert.deepEqual(await preferences(app, merchant), []);
  });

  test('unknown and malformed ids answer the 404 page, never a 500, and create nothing', async (t) => {
    const { app, merchant } = await build(t);
    const ids = [
      UNKNOWN_ID,
      'abc',
      'A'.repeat(23),
      'A'.repeat(100),
      '%3Cscript%3Ealert(1)%3C%2Fscript%3E',
      "x'%20or%20'1'%3D'1",
      '%00',
      '..%2F..%2Fetc%2Fpasswd',
      `${UNKNOWN_ID}/extra`,
      '',
    ];
    for (const [i, id] of ids.entries()) {
      for (const language of ['en', 'es']) {
        // An address per id: the rate limit counts unknown ids too.
        const res = await open(app, id, {
          headers: { 'accept-language': language },
          remoteAddress: `192.0.2.${i + 1}`,
        });
        assertHtmlPage(res, 404, 'plan-link-notFound', `/l/${id.slice(0, 40)}`);
        assert.ok(!res.body.includes('<script>alert'), 'nothing of the URL is echoed');
      }
    }
    const spanish = await open(app, UNKNOWN_ID, { headers: { 'accept-language': 'es' } });
    assert.ok(spanish.body.includes('No encontramos este plan'), spanish.body);
    const bare = await app.inject({ method: 'GET', url: '/l' });
    assert.equal(bare.statusCode, 404);
    // Broken percent-encoding and ids over Fastify's 100-character parameter limit are refused by
    // the server before any route, as on every path: a 4xx, never a 500.
    for (const url of ['/l/%E0%A4%A', `/l/${'A'.repeat(101)}`, `/l/${'A'.repeat(5000)}`]) {
      const broken = await app.inject({ method: 'GET', url });
      assert.ok(broken.statusCode >= 400 && broken.statusCode < 500, `${broken.statusCode} ${broken.body}`);
    }
    assert.deepEqual(await preferences(app, merchant), []);
  });

  test('answers 429 with a page and Retry-After once an address has opened links too often', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant);
    const address = '203.0.113.7';
    for (let i = 0; i < PLAN_LINK_RATE_LIMIT.max; i++) {
      const res = await open(app, plan.id, { remoteAddress: address });
      assert.equal(res.statusCode, 303, `request ${i + 1}: ${res.body}`);
    }
    const limited = await open(app, plan.id, { remoteAddress: address, headers: { 'accept-language': 'pt-BR' } });
    assertHtmlPage(limited, 429, 'plan-link-rateLimited', '429');
    const retryAfter = Number(limited.headers['retry-after']);
    assert.ok(retryAfter > 0 && retryAfter <= 60, `Retry-After ${String(limited.headers['retry-after'])}`);
    assert.ok(limited.body.includes('Tentativas demais'), limited.body);
    // Unknown ids count too (the limit is per address, whatever is asked), and nothing more is created.
    const unknown = await open(app, UNKNOWN_ID, { remoteAddress: address });
    assert.equal(unknown.statusCode, 429);
    assert.equal((await preferences(app, merchant)).length, PLAN_LINK_RATE_LIMIT.max);

    // Another address is not affected, and the API is not limited by the link's budget.
    checkoutOf(await open(app, plan.id, { remoteAddress: '198.51.100.20' }));
    assert.equal((await get(app, merchant, `/v1/payment_links/${plan.id}`)).statusCode, 200);
  });

  test('HEAD answers like the link would (200, 404, 410) and creates nothing', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant);
    const res = await open(app, plan.id, { method: 'HEAD' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers.location, undefined);
    assert.equal(res.headers['set-cookie'], undefined);
    assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
    assertSecurityHeaders(res, 'HEAD');
    assert.equal((await open(app, UNKNOWN_ID, { method: 'HEAD' })).statusCode, 404);
    await app.inject({ method: 'POST', url: `/v1/payment_links/${plan.id}/archive`, headers: merchant.authHeaders });
    assert.equal((await open(app, plan.id, { method: 'HEAD' })).statusCode, 410);
    assert.deepEqual(await preferences(app, merchant), []);
  });

  test('a link-preview bot gets a page with the plan title and creates nothing; its button makes the checkout', async (t) => {
    const { app, merchant } = await build(t);
    const plan = await createPaymentLink(app, merchant, { title: 'Gold & <b>friends</b>' });
    for (const agent of [
      'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
      'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
      'WhatsApp/2.23.20.0',
      'TelegramBot (like TwitterBot)',
      'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    ]) {
      const res = await open(app, plan.id, { headers: { 'user-agent': agent } });
      assertHtmlPage(res, 200, 'plan-link-preview', agent);
      assert.ok(res.body.includes('<title>Gold &amp; &lt;b&gt;friends&lt;/b&gt; · Checkout</title>'), res.body);
      assert.ok(res.body.includes(`<form method="post" action="/l/${plan.id}">`), res.body);
    }
    assert.deepEqual(await preferences(app, merchant), []);

    const button = await open(app, plan.id, {
      method: 'POST',
      headers: { 'user-agent': 'WhatsApp/2.23.20.0', 'content-type': 'application/x-www-form-urlencoded' },
    });
    const prefId = checkoutOf(button);
    assert.deepEqual(
      (await preferences(app, merchant)).map((p) => p.id),
      [prefId],
    );
  });

  test("a test-mode plan gives a test-mode checkout; a live plan a live one, invisible to the merchant's test key", async (t) => {
    const { app, merchant, createMerchant, cobro } = await build(t);
    const testPlan = await createPaymentLink(app, merchant);
    const testPref = checkoutOf(await open(app, testPlan.id));
    const testPage = await app.inject({ method: 'GET', url: `/checkout/${testPref}` });
    assert.equal(testPage.statusCode, 200);
    assert.match(testPage.body, /data-test="test-mode-banner"/);

    const live = await createMerchant('live', { bank: BANK_DETAILS });
    const livePlan = await createPaymentLink(app, live);
    const livePref = checkoutOf(await open(app, livePlan.id));
    const livePage = await app.inject({ method: 'GET', url: `/checkout/${livePref}` });
    assert.equal(livePage.statusCode, 200);
    assert.ok(!livePage.body.includes('test-mode-banner'), 'no test banner on a live checkout');
    assert.equal((await get(app, live, `/v1/checkout_preferences/${livePref}`)).statusCode, 200);
    const testKey = await cobro.services.merchants.createKeyPair(live.id, 'test');
    const sameMerchantTest = {
      ...live,
      mode: 'test' as const,
      authHeaders: { 'x-api-key': testKey.apiKey, 'x-api-secret': testKey.apiSecret },
    };
    assert.equal((await get(app, sameMerchantTest, `/v1/checkout_preferences/${livePref}`)).statusCode, 404);
    assert.deepEqual(
      (await preferences(app, live)).map((p) => p.id),
      [livePref],
    );
  });
});
