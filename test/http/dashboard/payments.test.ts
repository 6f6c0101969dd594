import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ManualClock } from '../../../src/domain/shared/clock.ts';
import { createPreference } from '../../support/builders.ts';
import { signedInMember } from '../../support/dashboard-client.ts';
import { getOrder, pay } from '../../support/payments.ts';
import type { TestApp, TestMerchant } from '../../support/test-app.ts';
import { BANK_DETAILS, describeBackends } from '../../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../../support/webhook-receiver.ts';

const T = '/dashboard/test';
const XSS = '<img src=x onerror=alert(1)>';
const XSS_ESCAPED = '&lt;img src&#61;x onerror&#61;alert(1)&gt;';
const LOOPBACK = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

/** A member signed in under `given`, made unique per merchant (see uniqueEmail). */
const signedIn = (ctx: TestApp, given: string, role: string, merchantId = ctx.merchant.id) =>
  signedInMember(ctx, role, { merchantId, email: given.replace('@', `+${merchantId.toLowerCase()}@`) });

/** A preference paid through the test helper (card unless the overrides choose other methods). */
async function paid(
  ctx: TestApp,
  prefOverrides: Record<string, unknown> = {},
  payBody: Record<string, unknown> = {},
  merchant: TestMerchant = ctx.merchant,
) {
  const pref = await createPreference(ctx.app, merchant, { payment_method_types: ['CARD'], ...prefOverrides });
  const res = await pay(ctx.app, merchant, pref.id, payBody);
  assert.equal(res.statusCode, 201, res.body);
  return { pref, order: res.json() };
}

const rowIds = (body: string, kind: 'order' | 'preference') =>
  [...body.matchAll(new RegExp(`data-test="${kind}-row" data-id="([A-Za-z0-9]+)"`, 'g'))].map((m) => m[1]);

/** An attribute's value as the browser reads it (the html tag escapes `&` and `=`). */
const attr = (value: string | undefined) => value?.replaceAll('&#61;', '=').replaceAll('&amp;', '&');

/** The error page without its per-response nonce, to compare two answers. */
const withoutNonce = (body: string) => body.replace(/nonce="[^"]+"/g, '');

/** A small RFC 4180 reader, enough to check the export cell by cell. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        cell += c;
      }
    } else if (c === '"') {
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else {
      cell += c;
    }
  }
  assert.equal(cell, '', 'the export ends with a line break');
  return rows;
}

describeBackends('dashboard payments', (build) => {
  test('the orders list shows this mode’s orders newest first and filters by status, method, dates, external_id and payer e-mail', async (t) => {
    const ctx = await build(t, { clock: new ManualClock('2025-03-10T12:00:00Z') });
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const card = await paid(ctx, { external_id: 'ord-1' }, { payer: { email: 'Ana@Example.com' } });
    ctx.clock.advance(2000);
    const pix = await paid(
      ctx,
      { currency: 'BRL', payment_method_types: ['PIX'], external_id: 'ord-2' },
      { outcome: 'PENDING', payer: { email: 'bob@example.com' } },
    );
    ctx.clock.advance(2000);
    const bank = await paid(
      ctx,
      { currency: 'MXN', amount: 300, payment_method_types: ['BANK_TRANSFER'], external_id: 'ord-3' },
      { outcome: 'PENDING' },
    );
    const other = await ctx.createMerchant('test');
    await paid(ctx, { external_id: 'ord-1' }, {}, other);

    const all = await browser.get(`${T}/payments`);
    assert.equal(all.statusCode, 200, all.body);
    assert.deepEqual(rowIds(all.body, 'order'), [bank.order.id, pix.order.id, card.order.id], 'newest first, own only');
    assert.match(all.body, /<a href="\/dashboard\/test\/payments" aria-current="page">Payment orders<\/a>/);

    const cases: [string, string[]][] = [
      ['status=CLOSED', [card.order.id]],
      ['status=OPENED', [bank.order.id, pix.order.id]],
      ['method=PIX', [pix.order.id]],
      ['method=BANK_TRANSFER', [bank.order.id]],
      ['method=CASH', []],
      ['external_id=ord-3', [bank.order.id]],
      ['payer_email=ana%40example.COM', [card.order.id]],
      ['status=OPENED&payer_email=bob%40example.com', [pix.order.id]],
      ['created_from=2025-03-10&created_to=2025-03-10', [bank.order.id, pix.order.id, card.order.id]],
      ['created_from=2025-03-11', []],
      ['created_to=2025-03-09', []],
    ];
    for (const [query, expected] of cases) {
      const res = await browser.get(`${T}/payments?${query}`);
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      assert.deepEqual(rowIds(res.body, 'order'), expected, query);
    }
    const kept = await browser.get(`${T}/payments?status=OPENED&method=PIX`);
    assert.match(kept.body, /<option value="OPENED" selected>/, 'the form shows the filters it applied');
    assert.match(kept.body, /href="\/dashboard\/test\/payments.csv\?status&#61;OPENED&amp;method&#61;PIX"/);

    for (const bad of ['created_from=2025-02-30', 'status=PAID', 'method=CHEQUE', 'after=nonsense']) {
      const res = await browser.get(`${T}/payments?${bad}`);
      assert.equal(res.statusCode, 400, bad);
      assert.match(res.body, /data-test="problems"/, bad);
      assert.deepEqual(rowIds(res.body, 'order'), [], bad);
    }
    const live = await browser.get('/dashboard/payments');
    assert.equal(live.statusCode, 200);
    assert.deepEqual(rowIds(live.body, 'order'), [], 'test-mode orders are not live data');
  });

  test('the preferences list filters by status, method of its order, external_id and the payer e-mail given or typed', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const card = await paid(ctx, { external_id: 'p-1' });
    ctx.clock.advance(1000);
    const pix = await paid(
      ctx,
      { currency: 'BRL', payment_method_types: ['PIX'], external_id: 'p-2' },
      { outcome: 'PENDING', payer: { email: 'bob@example.com' } },
    );
    ctx.clock.advance(1000);
    const unpaid = await createPreference(ctx.app, ctx.merchant, { payer: { email: 'dora@example.com' } });

    const all = await browser.get(`${T}/checkout_preferences`);
    assert.equal(all.statusCode, 200, all.body);
    assert.deepEqual(rowIds(all.body, 'preference'), [unpaid.id, pix.pref.id, card.pref.id]);
    const cases: [string, string[]][] = [
      ['status=PAID', [card.pref.id]],
      ['status=OPEN', [unpaid.id, pix.pref.id]],
      ['status=EXPIRED', []],
      ['method=PIX', [pix.pref.id]],
      ['method=CARD', [card.pref.id]],
      ['external_id=p-2', [pix.pref.id]],
      ['payer_email=dora%40example.com', [unpaid.id]],
      ['payer_email=BOB%40example.com', [pix.pref.id]],
    ];
    for (const [query, expected] of cases) {
      const res = await browser.get(`${T}/checkout_preferences?${query}`);
      assert.equal(res.statusCode, 200, `${query}: ${res.body}`);
      assert.deepEqual(rowIds(res.body, 'preference'), expected, query);
    }
    ctx.clock.advance(16 * 60_000);
    const expired = await browser.get(`${T}/checkout_preferences?status=EXPIRED`);
    assert.deepEqual(
      rowIds(expired.body, 'preference'),
      [unpaid.id, pix.pref.id],
      'past their time, OPEN reads EXPIRED',
    );
  });

  test('the lists page with a cursor: 50 a page, a next link that keeps the filters, no row twice', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const ids: string[] = [];
    for (let i = 0; i < 53; i++) {
      ids.unshift((await createPreference(ctx.app, ctx.merchant, { external_id: i % 2 === 0 ? 'even' : 'odd' })).id);
      ctx.clock.advance(1000);
    }
    const first = await browser.get(`${T}/checkout_preferences`);
    assert.deepEqual(rowIds(first.body, 'preference'), ids.slice(0, 50));
    const next = attr(/href="([^"]+)" rel="next"/.exec(first.body)?.[1]);
    assert.ok(next, 'a next page link');
    const second = await browser.get(next);
    assert.deepEqual(rowIds(second.body, 'preference'), ids.slice(50));
    assert.doesNotMatch(second.body, /rel="next"/);

    const evens = ids.filter((_, i) => (52 - i) % 2 === 0);
    const firstEven = await browser.get(`${T}/checkout_preferences?external_id=even`);
    assert.equal(rowIds(firstEven.body, 'preference').length, 27);
    assert.deepEqual(rowIds(firstEven.body, 'preference'), evens);
  });

  test('the CSV export holds the whole filtered list, as an attachment, with formula-like cells made inert', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const evil = await paid(
      ctx,
      { title: '=HYPERLINK("http://evil.example","click")', external_id: '+1+2' },
      { payer: { first_name: '@SUM(A1)', last_name: '-2, "quoted"', email: 'eve@example.com' } },
    );
    ctx.clock.advance(1000);
    const open = await paid(ctx, { currency: 'BRL', payment_method_types: ['PIX'] }, { outcome: 'PENDING' });

    const res = await browser.get(`${T}/payments.csv`);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(
      String(res.headers['content-disposition']),
      /^attachment; filename="payment-orders-test-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const rows = parseCsv(res.body);
    const header = rows[0] ?? [];
    assert.deepEqual(header.slice(0, 6), ['id', 'created_at', 'status', 'anomaly', 'amount', 'currency']);
    assert.deepEqual(
      rows.slice(1).map((r) => r[0]),
      [open.order.id, evil.order.id],
    );
    const row = Object.fromEntries(header.map((h, i) => [h, rows[2]?.[i]]));
    assert.equal(row.title, `'=HYPERLINK("http://evil.example","click")`);
    assert.equal(row.external_id, "'+1+2");
    assert.equal(row.payer_first_name, "'@SUM(A1)");
    assert.equal(row.payer_last_name, `'-2, "quoted"`);
    assert.equal(row.amount, '16.90');
    assert.equal(row.status, 'CLOSED');
    assert.match(row.created_at ?? '', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    for (const r of rows.slice(1)) {
      for (const cell of r) {
        assert.doesNotMatch(cell, /^[=+\-@]/, `inert cell: ${cell}`);
      }
    }

    const closed = parseCsv((await browser.get(`${T}/payments.csv?status=CLOSED`)).body);
    assert.deepEqual(
      closed.slice(1).map((r) => r[0]),
      [evil.order.id],
    );
    const prefs = await browser.get(`${T}/checkout_preferences.csv?status=PAID`);
    assert.equal(prefs.statusCode, 200);
    assert.equal(prefs.headers['content-type'], 'text/csv; charset=utf-8');
    const prefRows = parseCsv(prefs.body);
    assert.deepEqual(
      prefRows.slice(1).map((r) => r[0]),
      [evil.pref.id],
    );
    assert.ok(prefRows[1]?.includes(`http://127.0.0.1:3000/checkout/${evil.pref.id}`));

    const many = await ctx.createMerchant('test');
    const manyBrowser = await signedIn(ctx, 'many@shop.example', 'viewer', many.id);
    for (let i = 0; i < 120; i++) {
      await createPreference(ctx.app, many);
    }
    const big = parseCsv((await manyBrowser.get(`${T}/checkout_preferences.csv`)).body);
    assert.equal(big.length, 121, 'paged through every result, not only the first page');
    assert.equal(new Set(big.slice(1).map((r) => r[0])).size, 120);
  });

  test('the order page shows the record, the payer, the PIX instructions and a timeline with each webhook delivery', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const ctx = await build(t, { env: LOOPBACK });
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: ctx.merchant.authHeaders,
      payload: { url: `${receiver.url}/hooks` },
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const { order } = await paid(
      ctx,
      { currency: 'BRL', amount: 50, payment_method_types: ['PIX'], external_id: 'chat-42' },
      { outcome: 'PENDING', payer: { first_name: 'Ana', last_name: 'Souza', email: 'ana@example.com' } },
    );
    const confirmed = await ctx.app.inject({
      method: 'POST',
      url: `/v1/test_helpers/payment_orders/${order.id}/confirm`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(confirmed.statusCode, 200, confirmed.body);
    await drainWebhooks(ctx.cobro);
    assert.equal(receiver.received.length, 2);

    const page = await browser.get(`${T}/payment_orders/${order.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="payer-name">Ana Souza</);
    assert.match(page.body, /data-test="payer-email">ana@example.com</);
    assert.match(page.body, /data-test="external-id">chat-42</);
    assert.match(page.body, /data-test="method">PIX</);
    assert.match(page.body, /data-test="status">CLOSED</);
    const pixPayload = String((order.payment_instructions as { pix_payload: string }).pix_payload);
    const shown = /data-test="pix-payload">([^<]+)</
      .exec(page.body)?.[1]
      ?.replaceAll('&#61;', '=')
      .replaceAll('&amp;', '&');
    assert.equal(shown, pixPayload, 'the BR Code text');
    assert.match(page.body, /data-test="pix-qr"><svg role="img"/);
    const events = [...page.body.matchAll(/data-test="event" data-event-type="([A-Z_.]+)"/g)].map((m) => m[1]);
    assert.deepEqual(events, ['PAYMENT_ORDER.OPENED', 'PAYMENT_ORDER.CLOSED'], 'in the order they happened');
    const attempts = [...page.body.matchAll(/data-test="delivery-attempt">(.*?)<\/tr>/gs)].map((m) => m[1] ?? '');
    assert.equal(attempts.length, 2, page.body);
    for (const a of attempts) {
      assert.ok(a.includes(`${receiver.url}/hooks`), a);
      assert.match(a, /data-test="response-code">200</);
      assert.match(a, /<time datetime="/);
    }
    assert.match(page.body, />Redeliver PAYMENT_ORDER.CLOSED</);
    assert.match(page.body, /data-test="refund">Refund</, 'a paid PIX order can be recorded as refunded');

    // One more delivery of the CLOSED event, from the timeline.
    const forms = [...page.body.matchAll(/action="([^"]+\/redeliver)".*?>Redeliver (PAYMENT_ORDER\.[A-Z]+)</gs)];
    const closedForm = forms.find((f) => f[2] === 'PAYMENT_ORDER.CLOSED')?.[1];
    assert.ok(closedForm, page.body);
    const redelivered = await browser.post(closedForm, {});
    assert.equal(redelivered.statusCode, 303, redelivered.body);
    assert.equal(redelivered.headers.location, `${T}/payment_orders/${order.id}?done=redelivered`);
    await drainWebhooks(ctx.cobro);
    assert.equal(receiver.received.length, 3);
    const after = await browser.get(`${T}/payment_orders/${order.id}?done=redelivered`);
    assert.equal([...after.body.matchAll(/data-test="delivery-attempt"/g)].length, 3);
    assert.match(after.body, /data-test="notice">The event is queued/);
    const audit = await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null);
    assert.ok(audit.some((e) => e.action === 'event.redeliver' && e.detail.payment_order_id === order.id));
  });

  test('a bank transfer shows its bank details and reference, and the merchant confirms it through a confirmation page', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const { order } = await paid(
      ctx,
      { currency: 'MXN', amount: 300, payment_method_types: ['BANK_TRANSFER'] },
      { outcome: 'PENDING' },
    );
    const page = await browser.get(`${T}/payment_orders/${order.id}`);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="bank-details"/);
    const reference = String((order.payment_instructions as { reference: string }).reference);
    assert.ok(page.body.includes(reference), 'the reference to match the transfer by');
    assert.match(page.body, /<button type="submit" data-test="confirm-transfer">Confirm transfer received<\/button>/);
    const ask = await browser.get(`${T}/payment_orders/${order.id}/confirm`);
    assert.equal(ask.statusCode, 200);
    const done = await browser.post(`${T}/payment_orders/${order.id}/confirm`, {});
    assert.equal(done.statusCode, 303, done.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'CLOSED');
    const audit = await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null);
    assert.ok(audit.some((e) => e.action === 'payment_order.confirm' && e.objectId === order.id));
    const again = await browser.post(`${T}/payment_orders/${order.id}/confirm`, {});
    assert.equal(again.statusCode, 409);
    assert.match(again.body, /data-test="problems"/);
  });

  test('an owner refunds a paid order through the confirmation page; the reason goes into the audit log', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const { order } = await paid(ctx, { title: 'Blue mug' });
    const page = await browser.get(`${T}/payment_orders/${order.id}`);
    assert.match(page.body, /<button type="submit" data-test="refund">Refund<\/button>/);
    assert.match(page.body, /data-test="card-used">/, 'a card shows brand and last four only');
    assert.match(page.body, new RegExp(`<form method="get" action="${T}/payment_orders/${order.id}/refund"`));

    const ask = await browser.get(`${T}/payment_orders/${order.id}/refund`);
    assert.equal(ask.statusCode, 200, ask.body);
    assert.match(ask.body, /<h1>Refund Blue mug\?<\/h1>/);
    assert.match(ask.body, /<label for="reason">Reason<\/label><textarea id="reason" name="reason"/);
    assert.match(ask.body, /<button type="submit" data-test="confirm">Refund<\/button>/);
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'CLOSED', 'asking changes nothing');

    const tooLong = await browser.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'x'.repeat(501) });
    assert.equal(tooLong.statusCode, 400);
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'CLOSED');

    const done = await browser.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'Customer returned the mug' });
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, `${T}/payment_orders/${order.id}?done=refunded`);
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'REFUNDED');
    const audit = await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null);
    const entry = audit.find((e) => e.action === 'payment_order.refund');
    assert.ok(entry, JSON.stringify(audit));
    assert.equal(entry.objectId, order.id);
    assert.equal(entry.objectType, 'payment_order');
    assert.match(entry.actor, /^owner\+[a-z0-9]+@shop\.example$/);
    assert.equal(entry.detail.reason, 'Customer returned the mug');

    const after = await browser.get(`${T}/payment_orders/${order.id}?done=refunded`);
    assert.match(after.body, /data-test="notice">The payment is refunded.</);
    assert.doesNotMatch(after.body, /data-test="refund"/, 'nothing left to refund');
    const again = await browser.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'twice' });
    assert.equal(again.statusCode, 409);
    assert.match(again.body, /cannot be refunded/);
  });

  test('viewers and developers see no Refund button or payment form, and get 403 when they post anyway', async (t) => {
    const ctx = await build(t, { env: LOOPBACK });
    // An endpoint, so the order's events have deliveries (and a Redeliver button for those who may).
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: ctx.merchant.authHeaders,
      payload: { url: 'http://127.0.0.1:9/hook' },
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const { order } = await paid(ctx);
    for (const role of ['viewer', 'developer']) {
      const browser = await signedIn(ctx, `${role}@shop.example`, role);
      const page = await browser.get(`${T}/payment_orders/${order.id}`);
      assert.equal(page.statusCode, 200, page.body);
      assert.doesNotMatch(page.body, />Refund</, role);
      assert.equal(/>Redeliver /.test(page.body), role === 'developer', `${role}: redeliver is webhooks.write`);
      const list = await browser.get(`${T}/payments`);
      assert.doesNotMatch(list.body, /data-test="new-payment"/, role);
      assert.equal((await browser.get(`${T}/payment_orders/${order.id}/refund`)).statusCode, 403, role);
      assert.equal((await browser.get(`${T}/payments/new`)).statusCode, 403, role);
      await browser.get(`${T}/payment_orders/${order.id}`);
      const refund = await browser.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'sneaky' });
      assert.equal(refund.statusCode, 403, role);
      await browser.get(`${T}/payments`);
      const create = await browser.post(`${T}/payments/new`, {
        title: 'Sneaky',
        amount: '10',
        currency: 'USD',
        expires_in: '60',
      });
      assert.equal(create.statusCode, 403, role);
    }
    assert.equal((await getOrder(ctx.app, ctx.merchant, order.id)).status, 'CLOSED');
    const prefs = await ctx.app.inject({ url: '/v1/checkout_preferences', headers: ctx.merchant.authHeaders });
    assert.equal(prefs.json().data.length, 1, 'nothing was created');
    const viewer = await signedIn(ctx, 'viewer2@shop.example', 'viewer');
    const events = await ctx.app.inject({
      url: `/v1/events?entity_id=${order.id}`,
      headers: ctx.merchant.authHeaders,
    });
    const eventId = events.json().data[0].id;
    await viewer.get(`${T}/payment_orders/${order.id}`);
    const redeliver = await viewer.post(`${T}/payment_orders/${order.id}/events/${eventId}/redeliver`, {});
    assert.equal(redeliver.statusCode, 403);
  });

  test('another merchant’s ids and the other mode’s ids answer 404 exactly like unknown ids', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const other = await ctx.createMerchant('test');
    const theirs = await paid(ctx, {}, {}, other);
    const mine = await paid(ctx);
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    const live = await ctx.cobro.services.merchants.createKeyPair(ctx.merchant.id, 'live');
    // Bank details: something live mode can settle, so the live checkout can be made.
    await ctx.cobro.services.merchants.updateSettings(ctx.merchant.id, { bank: BANK_DETAILS });
    const liveMerchant: TestMerchant = {
      id: ctx.merchant.id,
      apiKey: live.apiKey,
      apiSecret: live.apiSecret,
      mode: 'live',
      authHeaders: { 'x-api-key': live.apiKey, 'x-api-secret': live.apiSecret },
    };
    const livePref = await createPreference(ctx.app, liveMerchant);

    const unknownPage = await browser.get(`${T}/payment_orders/${unknown}`);
    assert.equal(unknownPage.statusCode, 404);
    for (const path of [
      `${T}/payment_orders/${theirs.order.id}`,
      `${T}/payment_orders/${theirs.order.id}/refund`,
      `${T}/checkout_preferences/${theirs.pref.id}`,
      `/dashboard/payment_orders/${mine.order.id}`,
      `/dashboard/checkout_preferences/${mine.pref.id}`,
      `${T}/checkout_preferences/${livePref.id}`,
      `${T}/checkout_preferences/${unknown}`,
      `${T}/payment_orders/not-an-id`,
    ]) {
      const res = await browser.get(path);
      assert.equal(res.statusCode, 404, path);
      assert.equal(withoutNonce(res.body), withoutNonce(unknownPage.body), path);
    }
    assert.equal((await browser.get(`/dashboard/checkout_preferences/${livePref.id}`)).statusCode, 200);
    for (const path of [
      `${T}/payment_orders/${theirs.order.id}/refund`,
      `/dashboard/payment_orders/${mine.order.id}/refund`,
      `${T}/payment_orders/${unknown}/refund`,
    ]) {
      await browser.get(`${T}/payments`);
      const res = await browser.post(path, { reason: 'x' });
      assert.equal(res.statusCode, 404, path);
    }
    assert.equal((await getOrder(ctx.app, other, theirs.order.id)).status, 'CLOSED');
    assert.equal((await getOrder(ctx.app, ctx.merchant, mine.order.id)).status, 'CLOSED');
  });

  test('the payment form creates a one-time payment and shows its checkout link with a QR code', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const form = await browser.get(`${T}/payments/new`);
    assert.equal(form.statusCode, 200, form.body);
    for (const label of ['Title', 'Amount', 'Currency', 'Expires in']) {
      assert.match(form.body, new RegExp(`<label for="[a-z_]+">${label}</label>`), label);
    }
    const created = await browser.post(`${T}/payments/new`, {
      title: 'Handmade scarf',
      amount: '24,50',
      currency: 'USD',
      expires_in: '1440',
      methods: 'CARD',
      external_id: 'whatsapp-77',
    });
    assert.equal(created.statusCode, 303, created.body);
    const location = String(created.headers.location);
    const id = /^\/dashboard\/test\/checkout_preferences\/([A-Za-z0-9]{22})\?created=1$/.exec(location)?.[1];
    assert.ok(id, location);
    const page = await browser.get(location);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="created"/);
    assert.ok(page.body.includes(`value="http://127.0.0.1:3000/checkout/${id}" data-test="checkout-url"`));
    assert.match(page.body, /data-test="checkout-qr"><svg role="img" aria-label="QR code of the checkout link"/);

    const api = await ctx.app.inject({ url: `/v1/checkout_preferences/${id}`, headers: ctx.merchant.authHeaders });
    assert.equal(api.statusCode, 200, api.body);
    const pref = api.json();
    assert.equal(pref.title, 'Handmade scarf');
    assert.equal(pref.amount, 24.5);
    assert.equal(pref.currency, 'USD');
    assert.equal(pref.origin, 'PAYMENT_LINK', 'INTERFACE.md: the dashboard creates with origin PAYMENT_LINK');
    assert.equal(pref.external_id, 'whatsapp-77');
    assert.deepEqual(pref.payment_method_types, ['CARD']);
    assert.equal(Date.parse(pref.expiration_date) - Date.parse(pref.created_at), 24 * 3_600_000);
    const audit = await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null);
    assert.ok(audit.some((e) => e.action === 'checkout_preference.create' && e.objectId === id));

    const seven = await browser.post(`${T}/payments/new`, {
      title: 'Week',
      amount: '5',
      currency: 'USD',
      expires_in: '10080',
    });
    assert.equal(seven.statusCode, 303, seven.body);
  });

  test('the payment form shows the service’s validation errors on the form with 400 and creates nothing', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const cases: [Record<string, string>, RegExp][] = [
      [{ title: 'Tea', amount: '0.01', currency: 'USD', expires_in: '60' }, /amount must be between/],
      [{ title: 'Tea', amount: 'abc', currency: 'USD', expires_in: '60' }, /amount must be a number/],
      [{ title: '', amount: '10', currency: 'USD', expires_in: '60' }, /title is required/],
      [
        { title: 'Tea', amount: '10', currency: 'XYZ', expires_in: '60' },
        /currency must be one of the supported currencies/,
      ],
      [{ title: 'Tea', amount: '10', currency: 'USD', expires_in: '99999' }, /expires_in must be one of the choices/],
      [
        { title: 'Tea', amount: '10', currency: 'USD', expires_in: '60', methods: 'PIX' },
        /payment_method_types: no payment method/,
      ],
    ];
    for (const [fields, message] of cases) {
      await browser.get(`${T}/payments/new`);
      const res = await browser.post(`${T}/payments/new`, fields);
      assert.equal(res.statusCode, 400, `${JSON.stringify(fields)}: ${res.body}`);
      assert.match(res.body, /data-test="problems"/);
      assert.match(res.body, message);
      assert.match(res.body, /data-test="create-payment"/, 'the form again, not an error page');
      assert.ok(res.body.includes(`value="${fields.amount}"`), 'what was typed is kept');
    }
    const prefs = await ctx.app.inject({ url: '/v1/checkout_preferences', headers: ctx.merchant.authHeaders });
    assert.equal(prefs.json().data.length, 0);
  });

  test('merchant- and payer-supplied text comes out escaped on every payments page', async (t) => {
    const ctx = await build(t);
    const browser = await signedIn(ctx, 'owner@shop.example', 'owner');
    const { pref, order } = await paid(
      ctx,
      { title: XSS, external_id: XSS },
      { payer: { first_name: XSS, last_name: XSS, email: 'xss@example.com' } },
    );
    const pages = [
      `${T}/payments`,
      `${T}/payments?external_id=${encodeURIComponent(XSS)}`,
      `${T}/checkout_preferences`,
      `${T}/checkout_preferences?external_id=${encodeURIComponent(XSS)}`,
      `${T}/payment_orders/${order.id}`,
      `${T}/payment_orders/${order.id}/refund`,
      `${T}/checkout_preferences/${pref.id}`,
    ];
    for (const path of pages) {
      const res = await browser.get(path);
      assert.equal(res.statusCode, 200, path);
      assert.ok(!res.body.includes(XSS), `${path} has the raw payload`);
      assert.doesNotMatch(res.body, /<img[^>]*onerror/i, path);
      assert.ok(res.body.includes(XSS_ESCAPED), `${path} shows the text, escaped`);
    }
    await browser.get(`${T}/payments/new`);
    const echoed = await browser.post(`${T}/payments/new`, {
      title: XSS,
      amount: 'x',
      currency: 'USD',
      expires_in: '60',
      external_id: XSS,
    });
    assert.equal(echoed.statusCode, 400);
    assert.ok(!echoed.body.includes(XSS));
    assert.ok(echoed.body.includes(XSS_ESCAPED));
  });
});
