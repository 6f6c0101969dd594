import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import type { BrowserContext, Page, Response } from 'playwright-core';
import type { PageWatch, RunningCheckout } from '../support/browser.ts';
import {
  describeInChromium,
  fillCard,
  fillPayer,
  pay,
  startCheckout,
  startSite,
  watchPage,
} from '../support/browser.ts';
import { XSS_PAYLOADS } from '../support/xss-payloads.ts';

/** R20: every HTML response of the checkout carries these, whatever the page. */
function assertHtmlHeaders(response: Response): void {
  const headers = response.headers();
  const what = `${response.status()} ${response.url()}`;
  const csp = headers['content-security-policy'] ?? '';
  assert.match(csp, /script-src 'nonce-[A-Za-z0-9_-]{20,}'/, `${what}: ${csp}`);
  for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'none'"]) {
    assert.ok(csp.includes(directive), `${what}: CSP lacks ${directive}`);
  }
  assert.equal(headers['x-content-type-options'], 'nosniff', what);
  assert.ok(headers['referrer-policy'], `${what}: no Referrer-Policy`);
  assert.equal(headers['x-frame-options'], 'DENY', what);
  assert.equal(headers['cache-control'], 'no-store', what);
}

/** Records every document (HTML) response the page receives: status, headers and body. */
function recordDocuments(page: Page): { responses: Response[]; bodies: Promise<string>[] } {
  const seen = { responses: [] as Response[], bodies: [] as Promise<string>[] };
  page.on('response', (response) => {
    // Redirects have no page to look at; every other document (200, 400, 403, 404…) is kept.
    const status = response.status();
    if (response.request().resourceType() === 'document' && (status < 300 || status >= 400)) {
      seen.responses.push(response);
      seen.bodies.push(response.text().catch(() => ''));
    }
  });
  return seen;
}

async function createXssPreference(env: RunningCheckout, payload: string): Promise<{ id: string }> {
  return env.createPreference({
    title: payload,
    external_id: payload,
    payer: { first_name: payload, last_name: payload },
  });
}

/** A Luhn-valid Visa number of the given length (13, 16 or 19), random apart from the leading 4. */
function randomVisa(length: 13 | 16 | 19): string {
  let body = '4';
  while (body.length < length - 1) {
    body += String(Math.floor(Math.random() * 10));
  }
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    // Doubling starts from the digit left of the (future) check digit.
    let d = Number(body.charAt(body.length - 1 - i));
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) {
        d -= 9;
      }
    }
    sum += d;
  }
  return body + String((10 - (sum % 10)) % 10);
}

const grouped = (pan: string, separator: string) => pan.replace(/(\d{4})(?=\d)/g, `$1${separator}`);

describeInChromium('[CHECKOUT] security in Chromium', (browser) => {
  test('[CHECKOUT]: 40 XSS payloads in title, payer and external_id never run, with or without CSP', async (t) => {
    const env = await startCheckout(t);
    // bypassCSP: the escaping alone must hold; the normal context proves CSP had nothing to block.
    const unprotectedContext = await browser.context(t, { bypassCSP: true });
    const protectedContext = await browser.context(t);
    const watches: PageWatch[] = [];
    const documents: ReturnType<typeof recordDocuments>[] = [];
    const open = async (context: BrowserContext): Promise<Page> => {
      const page = await context.newPage();
      watches.push(watchPage(page));
      documents.push(recordDocuments(page));
      return page;
    };

    // Per payload: the form, the form sent back with errors, and the result page (each shows the title,
    // the payer and external_id); the result page once more under the real CSP.
    const runPayload = async (payload: string, unprotected: Page, guarded: Page): Promise<void> => {
      const pref = await createXssPreference(env, payload);
      const url = env.checkoutUrl(pref.id);
      await unprotected.goto(url);
      assert.equal(unprotected.url(), url, `navigated away for ${payload}`);
      // Typed values come back on the error page (attribute context): email and phone get the payload too.
      // Filled and submitted in one step inside the page: the same post as typing, without per-keystroke round trips.
      await unprotected.evaluate((value) => {
        type Form = { elements: Record<string, { value: string }>; requestSubmit(): void };
        const doc = (globalThis as unknown as { document: { querySelector(s: string): Form | null } }).document;
        const form = doc.querySelector('[data-test="checkout-form"]');
        if (form) {
          (form.elements.email ?? { value: '' }).value = value;
          (form.elements.phone ?? { value: '' }).value = value;
          form.requestSubmit();
        }
      }, payload);
      await unprotected.locator('[data-test="error-summary"]').waitFor();
      assert.equal(await unprotected.getByLabel('Email', { exact: true }).inputValue(), payload);
      const paid = await env.app.inject({
        method: 'POST',
        url: `/v1/test_helpers/checkout_preferences/${pref.id}/pay`,
        headers: env.merchant.authHeaders,
        payload: {},
      });
      assert.equal(paid.statusCode, 201, paid.body);
      const resultUrl = `${url}/orders/${(paid.json() as { id: string }).id}`;
      for (const page of [unprotected, guarded]) {
        await page.goto(resultUrl);
        await page.locator('[data-test="result-paid"]').waitFor();
        assert.equal(page.url(), resultUrl, `navigated away for ${payload}`);
      }
      assert.equal(await unprotected.locator('[data-test="title"]').textContent(), payload);
    };

    // Tabs opened at the same instant would each be handed a first CSRF cookie, the last one
    // winning (a payer's parallel first visits do the same; the loser gets the "form expired" page).
    const warmUp = await env.createPreference();
    for (const context of [unprotectedContext, protectedContext]) {
      const page = await open(context);
      await page.goto(env.checkoutUrl(warmUp.id));
    }
    // Three tabs of each kind share the payloads: the same pages, a fraction of the wall time.
    const lanes = 3;
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        const unprotected = await open(unprotectedContext);
        const guarded = await open(protectedContext);
        for (let i = lane; i < XSS_PAYLOADS.length; i += lanes) {
          await runPayload(XSS_PAYLOADS[i] ?? '', unprotected, guarded);
        }
        for (const page of [unprotected, guarded]) {
          const flag = await page.evaluate(() => (globalThis as { __xss?: unknown }).__xss);
          assert.equal(flag, undefined, 'window.__xss was set');
        }
      }),
    );
    for (const watch of watches) {
      assert.deepEqual(watch.dialogs, [], 'a payload opened a dialog');
      assert.deepEqual(watch.errors, [], 'page errors');
      assert.deepEqual(
        watch.console.filter((line) => /Content Security Policy|Refused to/i.test(line)),
        [],
        'CSP had to block something: markup from data reached the page',
      );
    }
    let count = 0;
    for (const seen of documents) {
      for (const response of seen.responses) {
        assertHtmlHeaders(response);
        count++;
      }
    }
    assert.ok(count >= XSS_PAYLOADS.length * 4, `every HTML response checked (${count})`);
  });

  test('[CHECKOUT]: another loopback origin cannot frame the checkout', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const framer = await startSite(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Framer</title><iframe id="f" src="${env.checkoutUrl(pref.id)}"></iframe>`);
    });
    const page = await (await browser.context(t)).newPage();
    const watch = watchPage(page);
    const framed = page.waitForEvent('console', (message) => message.text().includes('frame-ancestors'));
    await page.goto(`${framer.origin}/`);
    await framed;
    const frame = await (await page.$('#f'))?.contentFrame();
    assert.ok(frame, 'the iframe exists');
    assert.ok(!frame.url().startsWith(env.baseUrl), `the checkout rendered inside the frame: ${frame.url()}`);
    assert.ok(
      watch.console.some((line) => line.includes("frame-ancestors 'none'")),
      watch.console.join('\n'),
    );
  });

  test('[CHECKOUT]: a form posted from another origin is refused with 403 and pays nothing', async (t) => {
    const env = await startCheckout(t);
    const pref = await env.createPreference();
    const evil = await startSite(t, (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><title>Win a prize</title>
<form id="f" method="post" action="${env.checkoutUrl(pref.id)}">
<input name="csrf_token" value="guessed"><input name="email" value="victim@example.com">
<input name="first_name" value="V"><input name="last_name" value="V">
<input name="payment_method_id" value="jlbG2BoLT30LOwCWCuLYr0"></form>
<script>document.getElementById('f').submit()</script>`);
    });
    const page = await (await browser.context(t)).newPage();
    // The victim has the checkout open (and so the CSRF cookie, sent along: loopback ports are same-site).
    await page.goto(env.checkoutUrl(pref.id));
    const refused = page.waitForResponse((r) => r.request().method() === 'POST');
    await page.goto(`${evil.origin}/`);
    const response = await refused;
    assert.equal(response.status(), 403);
    await page.locator('[data-test="checkout-csrf"]').waitFor();
    const prefNow = await env.app.inject({
      url: `/v1/checkout_preferences/${pref.id}`,
      headers: env.merchant.authHeaders,
    });
    assert.equal(prefNow.json().payment_order_id, null, 'no order was created');
  });

  test('[CHECKOUT]: card numbers and security codes are never stored, logged or shown (R19)', async (t) => {
    const lines: string[] = [];
    const env = await startCheckout(t, {
      logLevel: 'debug',
      logStream: {
        write(line: string) {
          lines.push(line);
        },
      },
    });
    const page = await (await browser.context(t)).newPage();
    const documents = recordDocuments(page);
    // [PAN as typed, CVC, expiry, what happens]
    const cards: [string, string, string, 'paid' | 'failed' | 'invalid'][] = [
      ['4242 4242 4242 4242', '737', '12/34', 'paid'],
      ['5555 5555 5555 4444', '845', '11/33', 'paid'],
      ['3782 822463 10005', '9163', '10/32', 'paid'],
      ['4000 0000 0000 0002', '291', '09/31', 'failed'],
      ['4000-0000-0000-9995', '604', '08/30', 'failed'],
      ['4000000000000119', '518', '07/35', 'failed'],
      ['4242 4242 4242 4241', '373', '12/34', 'invalid'],
      ['4111 1111 1111 1111', '482', '01/20', 'invalid'],
      [grouped(randomVisa(16), ' '), '156', '06/36', 'paid'],
      [randomVisa(19), '264', '05/37', 'paid'],
      [randomVisa(13), '381', '04/38', 'paid'],
    ];
    for (const [pan, cvc, expiry, outcome] of cards) {
      const pref = await env.createPreference();
      await page.goto(env.checkoutUrl(pref.id));
      await fillPayer(page);
      await page.getByRole('radio', { name: 'Card', exact: true }).check();
      await fillCard(page, { number: pan, cvc, expiry });
      await pay(page);
      const selector = { paid: 'result-paid', failed: 'result-failed', invalid: 'error-summary' }[outcome];
      await page.locator(`[data-test="${selector}"]`).waitFor();
      if (outcome === 'invalid') {
        assert.equal(await page.getByLabel('Card number', { exact: true }).inputValue(), '');
        assert.equal(await page.getByLabel('Security code', { exact: true }).inputValue(), '');
      }
    }
    // Card data typed in, then another method chosen: emptied and not posted, never used, never kept.
    const other = await env.createPreference();
    await page.goto(env.checkoutUrl(other.id));
    await fillPayer(page);
    await page.getByRole('radio', { name: 'Card', exact: true }).check();
    await fillCard(page, { number: '6011 0000 0000 0004', cvc: '927' });
    await page.getByRole('radio', { name: 'Bank transfer', exact: true }).check();
    await pay(page);
    await page.locator('[data-test="bank-details"]').waitFor();
    cards.push(['6011 0000 0000 0004', '927', '12/34', 'invalid']);

    // Everything the merchant's API shows about these orders.
    const orders = await env.app.inject({ url: '/v1/payment_orders?limit=100', headers: env.merchant.authHeaders });
    assert.equal(orders.statusCode, 200, orders.body);
    const stored = (orders.json() as { data: { payment_instructions: Record<string, unknown> | null }[] }).data;
    for (const order of stored) {
      const ins = order.payment_instructions;
      if (ins && ins.type === 'CARD') {
        assert.deepEqual(Object.keys(ins).sort(), ['brand', 'exp_month', 'exp_year', 'last4', 'type'], orders.body);
      }
    }
    const sqlite = env.sqlitePath ?? '';
    const files = [sqlite, `${sqlite}-wal`, `${sqlite}-shm`].map((path) => {
      try {
        return { path, text: readFileSync(path).toString('latin1') };
      } catch {
        return { path, text: '' };
      }
    });
    assert.ok((files[0]?.text.length ?? 0) > 0, 'the database file was read');
    const html = await Promise.all(documents.bodies);
    assert.ok(html.length >= cards.length * 2, `pages captured: ${html.length}`);
    const haystacks = [
      ...files.map((f) => ({ where: f.path, text: f.text })),
      { where: 'logs', text: lines.join('') },
      { where: 'API responses', text: orders.body },
      ...html.map((text, i) => ({ where: `page ${i}`, text })),
    ];
    assert.ok(lines.length > 0, 'logs were captured');
    let panHits = 0;
    let cvcHits = 0;
    const report: string[] = [];
    for (const [typed, cvc] of cards) {
      const digits = typed.replace(/\D/g, '');
      const forms = new Set([digits, typed, grouped(digits, ' '), grouped(digits, '-')]);
      const cvcInContext = new RegExp(`(?:cvc|cvv|csc|security.?code|card_cvc)\\W{0,40}${cvc}(?!\\d)`, 'i');
      for (const { where, text } of haystacks) {
        for (const form of forms) {
          if (text.includes(form)) {
            panHits++;
            report.push(`PAN ${form} in ${where}`);
          }
        }
        if (cvcInContext.test(text)) {
          cvcHits++;
          report.push(`CVC ${cvc} in ${where}`);
        }
      }
    }
    assert.deepEqual({ panHits, cvcHits }, { panHits: 0, cvcHits: 0 }, report.join('\n'));
  });
});
