import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { payPixSubscription } from '../support/payments.ts';
import { startSmtpInbox } from '../support/smtp-inbox.ts';
import type { TestApp } from '../support/test-app.ts';
import { buildTestApp, describeBackends } from '../support/test-app.ts';
import { assertError } from './helpers.ts';

/**
 * Renewal e-mails of push-method subscriptions: kept for the test-mode mailbox without SMTP, and
 * delivered to a real SMTP server (the `smtp-server` package on loopback) when SMTP_URL is set.
 */

const DAY_MS = 86_400_000;

type Mail = { id: string; to: string; subject: string; text: string; status: string; created_at: string };

async function pixSubscription(ctx: TestApp, email = 'ana@example.com') {
  const { pref, order } = await payPixSubscription(ctx.app, ctx.merchant, { email });
  assert.equal(order.json().status, 'CLOSED', order.body);
  const recId = String(order.json().recurrent_payment_id);
  const rec = await ctx.app.inject({ url: `/v1/recurrent_payments/${recId}`, headers: ctx.merchant.authHeaders });
  return { prefId: pref.id, recId, nextPaymentDate: Date.parse(String(rec.json().next_payment_date)) };
}

async function mailbox(
  ctx: TestApp,
  query = '',
): Promise<{ data: Mail[]; has_more: boolean; next_cursor: string | null }> {
  const res = await ctx.app.inject({ url: `/v1/test_helpers/emails${query}`, headers: ctx.merchant.authHeaders });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

async function openRenewal(ctx: TestApp, recId: string) {
  const res = await ctx.app.inject({
    url: `/v1/payment_orders?recurrent_payment_id=${recId}&status=OPENED`,
    headers: ctx.merchant.authHeaders,
  });
  const order = res.json().data[0] as
    | { id: string; amount: number; payment_instructions: { pix_payload: string; expires_at: string } }
    | undefined;
  assert.ok(order, res.body);
  return order;
}

describeBackends('the test-mode mailbox (GET /v1/test_helpers/emails)', (build) => {
  test('without SMTP the renewal notice is KEPT and listed, newest first, with to, subject, text and status', async (t) => {
    const ctx = await build(t);
    const first = await pixSubscription(ctx, 'ana@example.com');
    const second = await pixSubscription(ctx, 'bruno@example.com');
    assert.deepEqual((await mailbox(ctx)).data, [], 'no mail before a renewal is due');
    // Both renewals open RENEWAL_NOTICE_HOURS (72 h) before their due date.
    ctx.clock.advance(first.nextPaymentDate - ctx.clock.now().getTime() - 2 * DAY_MS);
    await ctx.cobro.runJobs();
    const listed = await mailbox(ctx);
    assert.equal(listed.data.length, 2, JSON.stringify(listed));
    assert.deepEqual(new Set(listed.data.map((m) => m.to)), new Set(['ana@example.com', 'bruno@example.com']));
    for (const mail of listed.data) {
      assert.equal(mail.status, 'KEPT', JSON.stringify(mail));
      assert.match(mail.subject, /^Payment due: Revista Mensal \(Merchant [0-9a-f]{6}\)$/, 'names the merchant');
      // The subscribers paid through the API (no page, so no language): English, reais as written at home.
      assert.ok(mail.text.includes(new Intl.NumberFormat('en-BR', { style: 'currency', currency: 'BRL' }).format(30)));
      assert.match(mail.text, /\/subscriptions\/[A-Za-z0-9]{22}\?sig=/);
    }
    const page = await mailbox(ctx, '?limit=1');
    assert.equal(page.data.length, 1);
    assert.equal(page.has_more, true);
    const rest = await mailbox(ctx, `?limit=1&cursor=${page.next_cursor}`);
    assert.equal(rest.data.length, 1);
    assert.equal(rest.has_more, false);
    assert.deepEqual(
      [page.data[0]?.id, rest.data[0]?.id],
      listed.data.map((m) => m.id),
      'newest first, page by page',
    );
    assert.ok(second.recId, 'both subscriptions renew');

    const other = await ctx.createMerchant('test');
    const theirs = await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: other.authHeaders });
    assert.deepEqual(theirs.json().data, [], "another merchant's mailbox is empty");
    const live = await ctx.createMerchant('live');
    assertError(await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: live.authHeaders }), 403, 'FORBIDDEN');
    assertError(
      await ctx.app.inject({ url: '/v1/test_helpers/emails?limit=0', headers: ctx.merchant.authHeaders }),
      400,
      'WRONG_INPUT',
    );
  });
});

describe('renewal e-mail over SMTP', () => {
  test('cobro.runJobs() delivers the PIX renewal notice to a real SMTP server: amount, due date, BR Code, payment page and signed manage link', async (t) => {
    const inbox = await startSmtpInbox();
    t.after(() => inbox.close());
    const ctx = await buildTestApp(t, 'sqlite', {
      env: { SMTP_URL: inbox.url, MAIL_FROM: 'Loja Teste <cobranca@loja.example>' },
    });
    const { prefId, recId, nextPaymentDate } = await pixSubscription(ctx);
    ctx.clock.advance(nextPaymentDate - ctx.clock.now().getTime() - 2 * DAY_MS);
    await ctx.cobro.runJobs();
    const [mail] = await inbox.waitFor(1);
    assert.ok(mail);
    assert.equal(inbox.received.length, 1, 'one notice for one renewal');
    assert.equal(mail.from, 'cobranca@loja.example');
    assert.deepEqual(mail.to, ['ana@example.com']);
    assert.match(mail.subject, /^Payment due: Revista Mensal \(Merchant [0-9a-f]{6}\)$/, 'names the merchant');
    assert.match(mail.headers.from ?? '', /Loja Teste <cobranca@loja\.example>/);

    const order = await openRenewal(ctx, recId);
    const link = await ctx.app.inject({
      url: `/v1/test_helpers/recurrent_payments/${recId}/payer_link`,
      headers: ctx.merchant.authHeaders,
    });
    const manage = String(link.json().url);
    const lines = mail.text.split('\n');
    assert.equal(lines[0], 'Hello Ana,');
    const due = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
      new Date(order.payment_instructions.expires_at),
    );
    assert.ok(lines.includes(`Your subscription "Revista Mensal" renews: R$30.00, due by ${due} UTC.`), mail.text);
    assert.ok(lines.includes(order.payment_instructions.pix_payload), `no BR Code in: ${mail.text}`);
    assert.match(order.payment_instructions.pix_payload, /^000201.*6304[0-9A-F]{4}$/);
    assert.ok(
      lines.includes(`Payment page (QR code and details): http://127.0.0.1:3000/checkout/${prefId}/orders/${order.id}`),
      mail.text,
    );
    assert.ok(lines.includes(`Manage or cancel your subscription: ${manage}`), mail.text);

    // The links work: the manage page opens with its signature, the payment page shows the BR Code.
    const managePage = await ctx.app.inject({ url: manage.replace('http://127.0.0.1:3000', '') });
    assert.equal(managePage.statusCode, 200, managePage.body);
    const paymentPage = await ctx.app.inject({ url: `/checkout/${prefId}/orders/${order.id}` });
    assert.equal(paymentPage.statusCode, 200, paymentPage.body);
    assert.ok(paymentPage.body.includes(order.payment_instructions.pix_payload));

    const kept = await mailbox(ctx);
    assert.equal(kept.data[0]?.status, 'SENT', JSON.stringify(kept));
    assert.equal(kept.data[0]?.text, mail.text, 'the mailbox shows exactly what was sent');
    await ctx.cobro.runJobs();
    assert.equal(inbox.received.length, 1, 'a sent mail is not sent again');
  });
});
