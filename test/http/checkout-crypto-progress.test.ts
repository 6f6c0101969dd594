import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { escapeHtml } from '../../src/web/kit/html.ts';
import { createPreference } from '../support/builders.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/** The catalogue's USDT on Ethereum (fixed across installs); test mode asks 2 confirmations on Ethereum. */
const CRYPTO_USDT_ETHEREUM = 'VLzWq0e7ih0JK0oCZ2kmsm';
const FORM = 'application/x-www-form-urlencoded';
const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza', phone: '+55 11 98765 4321' };

type StatusBody = { status: string; final: boolean; redirect_url: string | null; progress?: { text: string } | null };

function cookieFrom(res: LightMyRequestResponse): string {
  const header = res.headers['set-cookie'];
  const first = Array.isArray(header) ? header[0] : header;
  const cookie = first?.split(';')[0];
  assert.ok(cookie, 'the checkout form sets its CSRF cookie');
  return cookie;
}

/** Pays a 16.90 USD checkout with USDT the way a payer does: the form, then the order page it redirects to. */
async function openCryptoOrder(ctx: TestApp): Promise<{ orderUrl: string; address: string }> {
  const pref = await createPreference(ctx.app, ctx.merchant);
  const form = await ctx.app.inject({ url: `/checkout/${pref.id}` });
  assert.equal(form.statusCode, 200, form.body);
  const token = /name="csrf_token" value="([^"]+)"/.exec(form.body)?.[1];
  assert.ok(token, 'the form carries a CSRF token');
  const posted = await ctx.app.inject({
    method: 'POST',
    url: `/checkout/${pref.id}`,
    headers: { 'content-type': FORM, cookie: cookieFrom(form), origin: 'http://127.0.0.1:3000' },
    payload: new URLSearchParams({ csrf_token: token, ...PAYER, payment_method_id: CRYPTO_USDT_ETHEREUM }).toString(),
  });
  assert.equal(posted.statusCode, 303, posted.body);
  const orderUrl = String(posted.headers.location);
  const page = await ctx.app.inject({ url: orderUrl });
  const address = /value="(0x[0-9a-fA-F]{40})" class="mono" data-test="crypto-address"/.exec(page.body)?.[1];
  assert.ok(address, `the panel shows the order's address: ${page.body}`);
  return { orderUrl, address };
}

/** The text of the panel's progress line, after checking it is the hook the script and screen readers rely on. */
async function progressLineOf(app: FastifyInstance, orderUrl: string, language = 'en'): Promise<string> {
  const page = await app.inject({ url: orderUrl, headers: { 'accept-language': language } });
  assert.equal(page.statusCode, 200, page.body);
  const match = /<p\b([^>]*)data-test="crypto-progress"([^>]*)>([^<]*)<\/p>/.exec(page.body);
  assert.ok(match, `no progress line on the order page: ${page.body}`);
  const attributes = `${match[1]}${match[2]}`;
  assert.match(attributes, /\bdata-chain-progress\b/);
  assert.match(attributes, /aria-live="polite"/);
  return match[3] ?? '';
}

async function statusOf(app: FastifyInstance, orderUrl: string, language = 'en'): Promise<StatusBody> {
  const res = await app.inject({ url: `${orderUrl}/status`, headers: { 'accept-language': language } });
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers.vary), /Accept-Language/i, 'the answer depends on the language');
  return res.json() as StatusBody;
}

describeBackends('checkout: crypto payment progress', (build) => {
  test('before anything is seen, the progress line is empty and the status poll says progress null', async (t) => {
    const ctx = await build(t);
    const { orderUrl } = await openCryptoOrder(ctx);
    assert.equal(await progressLineOf(ctx.app, orderUrl), '');
    assert.deepEqual(await statusOf(ctx.app, orderUrl), {
      status: 'OPENED',
      final: false,
      redirect_url: null,
      progress: null,
    });
  });

  test('a partial payment shows what was received and what is left, on the page and in the status poll alike', async (t) => {
    const ctx = await build(t);
    const { orderUrl, address } = await openCryptoOrder(ctx);
    ctx.cobro.providers.testChain.send('ethereum', address, 5_000_000n, 1);
    await ctx.cobro.runJobs();
    const expected =
      'Received 5.000000 USDT of 16.900000 USDT — send the remaining 11.900000 USDT to the same address.';
    assert.equal(await progressLineOf(ctx.app, orderUrl), escapeHtml(expected));
    const status = await statusOf(ctx.app, orderUrl);
    assert.equal(status.status, 'OPENED');
    assert.equal(status.final, false);
    assert.deepEqual(status.progress, { text: expected });
    // A Brazilian reads the amounts with a decimal comma, on the page and in the poll alike.
    const portuguese =
      'Recebemos 5,000000 USDT de 16,900000 USDT — envie os 11,900000 USDT restantes para o mesmo endereço.';
    assert.equal(await progressLineOf(ctx.app, orderUrl, 'pt-BR'), escapeHtml(portuguese));
    assert.deepEqual((await statusOf(ctx.app, orderUrl, 'pt-BR')).progress, { text: portuguese });
  });

  test('the whole amount seen shows its confirmations so far, translated for Spanish and Portuguese payers', async (t) => {
    const ctx = await build(t);
    const { orderUrl, address } = await openCryptoOrder(ctx);
    const chain = ctx.cobro.providers.testChain;
    chain.send('ethereum', address, 5_000_000n, 1);
    chain.send('ethereum', address, 11_900_000n, 1);
    await ctx.cobro.runJobs();

    const english = 'Payment seen — 1 of 2 confirmations.';
    assert.equal(await progressLineOf(ctx.app, orderUrl), escapeHtml(english));
    assert.deepEqual((await statusOf(ctx.app, orderUrl)).progress, { text: english });

    const spanish = 'Pago detectado — 1 de 2 confirmaciones.';
    assert.equal(await progressLineOf(ctx.app, orderUrl, 'es-MX,es;q=0.9'), escapeHtml(spanish));
    assert.deepEqual((await statusOf(ctx.app, orderUrl, 'es-MX,es;q=0.9')).progress, { text: spanish });

    const portuguese = 'Pagamento detectado — 1 de 2 confirmações.';
    assert.equal(await progressLineOf(ctx.app, orderUrl, 'pt-BR'), escapeHtml(portuguese));
    assert.deepEqual((await statusOf(ctx.app, orderUrl, 'pt-BR')).progress, { text: portuguese });
  });

  test('once the confirmations are in, the order closes and the status poll carries no progress', async (t) => {
    const ctx = await build(t);
    const { orderUrl, address } = await openCryptoOrder(ctx);
    const chain = ctx.cobro.providers.testChain;
    chain.send('ethereum', address, 16_900_000n, 1);
    await ctx.cobro.runJobs();
    assert.equal(await progressLineOf(ctx.app, orderUrl), escapeHtml('Payment seen — 1 of 2 confirmations.'));
    chain.mine('ethereum', 1);
    await ctx.cobro.runJobs();
    assert.deepEqual(await statusOf(ctx.app, orderUrl), { status: 'CLOSED', final: true, redirect_url: null });
    const done = await ctx.app.inject({ url: orderUrl });
    assert.match(done.body, /data-test="result-paid"/);
    assert.doesNotMatch(done.body, /data-chain-progress/);
  });
});
