import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { after, before, beforeEach, test } from 'node:test';
import { sql } from 'kysely';
import { parsePix } from 'pix-utils';
import type { ConnectionView } from '../../src/domain/connectors/connection.ts';
import { pixRefundId, pixTxid } from '../../src/domain/connectors/pix-charge.ts';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { createPreference } from '../support/builders.ts';
import { cookieFrom, postForm, tokenFrom } from '../support/page-forms.ts';
import { getOrder } from '../support/payments.ts';
import type { PixPspStandIn } from '../support/pix-psp-stand-in.ts';
import { connectInput, PixPspStandIn as StandIn, usePixStandIn } from '../support/pix-psp-stand-in.ts';
import type { BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { BRL_PIX_ID } from './helpers.ts';

/*
 * Live PIX through a merchant's PSP (INTERFACE §11.2), end to end on the hosted checkout with
 * plain form posts, against the PSP stand-in (mutual TLS; every request, answer and
 * notification checked against the Central Bank's published description). Every code Cobro
 * shows is read by an independent parser (pix-utils).
 */

const PAYER = { email: 'ana@example.com', first_name: 'Ana', last_name: 'Lima' };

const standIns = usePixStandIn();
let standIn: PixPspStandIn;
beforeEach(() => {
  standIn = standIns();
  standIn.refundStatus = 'DEVOLVIDO';
});

// A second PSP, of the inter profile (its notification is a bare array).
let inter: PixPspStandIn;
before(async () => {
  inter = await StandIn.start({ profile: 'inter' });
});
after(async () => {
  await inter.close();
  await inter.ca.dispose();
});

type Live = { ctx: TestApp; live: TestMerchant; connection: ConnectionView; psp: PixPspStandIn };

describeBackends('live PIX through the merchant’s PSP (API Pix)', (build) => {
  async function connected(t: TestContext, options: BuildOptions = {}, psp: PixPspStandIn = standIn): Promise<Live> {
    const ctx = await build(t, options);
    const live = await ctx.createMerchant('live');
    const client = await psp.addClient();
    const connection = await ctx.cobro.services.connectors.connecting.connectPix(
      live.id,
      connectInput(psp, client, 'live', `pix-${live.id.slice(0, 8).toLowerCase()}@loja.com.br`),
      CLI_ACTOR,
    );
    return { ctx, live, connection, psp };
  }

  /** A payer on the hosted checkout choosing PIX (plain form posts): the order page it lands on. */
  async function payerChoosesPix(ctx: TestApp, prefId: string): Promise<{ orderId: string; location: string }> {
    const page = await ctx.app.inject({ url: `/checkout/${prefId}` });
    assert.equal(page.statusCode, 200, page.body);
    const session = { cookie: cookieFrom(page) ?? '', token: tokenFrom(page.body) };
    const posted = await postForm(ctx.app, `/checkout/${prefId}`, session, { ...PAYER, payment_method_id: BRL_PIX_ID });
    assert.equal(posted.statusCode, 303, posted.body);
    const location = String(posted.headers.location);
    const orderId = /\/orders\/([A-Za-z0-9]{22})$/.exec(location)?.[1];
    assert.ok(orderId, location);
    return { orderId, location };
  }

  async function liveOrder(env: Live, amount = 16.9, title = 'Camiseta azul') {
    const pref = await createPreference(env.ctx.app, env.live, { currency: 'BRL', amount, title });
    const { orderId, location } = await payerChoosesPix(env.ctx, pref.id);
    return { pref, orderId, location, txid: pixTxid(orderId) };
  }

  async function notify(env: Live, txids: string[]) {
    const note = env.psp.notification(env.connection.webhookUrl, txids);
    return env.ctx.app.inject({
      method: 'POST',
      url: note.path,
      headers: { 'content-type': 'application/json' },
      payload: note.body,
    });
  }

  /** The pix-sync job's next run, `seconds` later (the PSP is asked every 20 s). */
  async function syncAfter(env: Live, seconds: number) {
    env.ctx.clock.advance(seconds * 1000);
    await env.ctx.cobro.services.connectors.pix.sync();
  }

  const chargeRow = async (ctx: TestApp, orderId: string) =>
    (await sql`select * from pix_charges where order_id = ${orderId}`.execute(ctx.cobro.database.db)).rows[0] as
      | Record<string, unknown>
      | undefined;

  test('choosing PIX makes one charge at the PSP; the order shows the PSP’s code and QR; the notification settles it once', async (t) => {
    const env = await connected(t);
    const { ctx, live } = env;
    const { orderId, location, txid } = await liveOrder(env);
    const order = await getOrder(ctx.app, live, orderId);
    assert.equal(order.status, 'OPENED');
    const charge = env.psp.charge(txid);
    assert.match(txid, /^[a-zA-Z0-9]{26,35}$/);

    // The charge asked for: the order's amount with two decimals, the key, the title, an expiry not past the order's.
    const sent = charge.request as {
      calendario: { expiracao: number };
      valor: { original: string };
      chave: string;
      solicitacaoPagador: string;
    };
    assert.equal(sent.valor.original, '16.90');
    assert.equal(sent.chave, env.connection.pix?.pixKey);
    assert.equal(sent.solicitacaoPagador, 'Camiseta azul');
    const secondsLeft = (Date.parse(String(order.expiration_date)) - ctx.clock.now().getTime()) / 1000;
    assert.ok(sent.calendario.expiracao <= secondsLeft + 1 && sent.calendario.expiracao > secondsLeft - 5);

    // The order's code is the PSP's, byte for byte; an independent parser reads it.
    const payload = String(order.payment_instructions?.pix_payload);
    assert.equal(payload, charge.pixCopiaECola);
    assert.equal(order.payment_instructions?.txid, txid);
    const parsed = parsePix(payload) as { type?: string; url?: string; error?: boolean };
    assert.ok(!parsed.error, JSON.stringify(parsed));
    assert.equal(parsed.type, 'DYNAMIC');
    assert.equal(`https://${parsed.url}`, charge.location, 'the code points at this charge, of 16.90');

    // The payer's page shows that code and its QR.
    const page = await ctx.app.inject({ url: location });
    assert.equal(page.statusCode, 200);
    assert.ok(page.body.includes('data-test="pix-qr"'));
    assert.ok(page.body.includes(payload.replaceAll('&', '&amp;')));

    // Paid at the PSP; its notification makes Cobro ask, and the order closes.
    env.psp.pay(txid);
    const res = await notify(env, [txid]);
    assert.equal(res.statusCode, 200, res.body);
    const closed = await getOrder(ctx.app, live, orderId);
    assert.equal(closed.status, 'CLOSED');
    assert.equal(closed.anomaly, 'NONE');
    assert.ok(
      env.psp.requests.some((r) => r.operation === 'GET /cob/{txid}' && r.path === `/cob/${txid}`),
      'settled on the PSP’s own answer',
    );
    // The same notification again: one effect.
    const again = await notify(env, [txid]);
    assert.equal(again.statusCode, 200);
    const still = await getOrder(ctx.app, live, orderId);
    assert.equal(still.sequence, closed.sequence);
    const events = await sql`select event_id, outcome from connector_events where object_id = ${txid}`.execute(
      ctx.cobro.database.db,
    );
    assert.deepEqual(
      events.rows.map((r) => (r as { outcome: string }).outcome),
      ['closed'],
    );
    assert.equal([...env.psp.charges.keys()].filter((k) => k === txid).length, 1);
  });

  test('a notification that is not the PSP’s (the charge still ATIVA), or names an unknown txid, changes nothing and is answered 2xx', async (t) => {
    const env = await connected(t);
    const { orderId, txid } = await liveOrder(env);
    const spoofed = await notify(env, [txid, 'cobroNoSuchChargeAtAllXXXXXXX']);
    assert.equal(spoofed.statusCode, 200, spoofed.body);
    const order = await getOrder(env.ctx.app, env.live, orderId);
    assert.equal(order.status, 'OPENED');
    assert.equal(env.psp.charge(txid).status, 'ATIVA');

    const url = new URL(env.connection.webhookUrl).pathname;
    const notJson = await env.ctx.app.inject({ method: 'POST', url: `${url}/pix`, payload: 'pix=1' });
    assert.equal(notJson.statusCode, 400, notJson.body);
    const unknown = await env.ctx.app.inject({
      method: 'POST',
      url: '/connectors/pix/webhooks/NoConnectionHasThisId0/pix',
      headers: { 'content-type': 'application/json' },
      payload: '{"pix":[]}',
    });
    assert.equal(unknown.statusCode, 404);
    // Efí's check of the URL as registered, with its own test body: 200, nothing done.
    const probe = await env.ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json' },
      payload: '{"evento":"teste_webhook"}',
    });
    assert.equal(probe.statusCode, 200);
  });

  test('a payment whose notification is lost settles from the job within a minute', async (t) => {
    const env = await connected(t);
    const { orderId, txid } = await liveOrder(env);
    env.psp.pay(txid);
    await syncAfter(env, 5);
    assert.equal((await getOrder(env.ctx.app, env.live, orderId)).status, 'OPENED', 'not due yet');
    await syncAfter(env, 20);
    assert.equal((await getOrder(env.ctx.app, env.live, orderId)).status, 'CLOSED');
  });

  test('a partial amount is recorded as UNDERPAID, another amount at the PSP is not settled either, and the merchant is told why', async (t) => {
    const env = await connected(t);
    const { orderId, txid } = await liveOrder(env, 50);
    env.psp.pay(txid, 1000n);
    await notify(env, [txid]);
    const order = await getOrder(env.ctx.app, env.live, orderId);
    assert.equal(order.status, 'OPENED');
    assert.equal(order.anomaly, 'UNDERPAID');
    const [view] = await env.ctx.cobro.services.connectors.connections.list(env.live.id);
    assert.match(String(view?.lastError), /concluded with 1000 of 5000 centavos; order \w+ was not settled/);
    assert.equal((await chargeRow(env.ctx, orderId))?.state, 'PARTIAL');

    // A charge the PSP holds for another amount than the order's (changed in its portal): paid in full, still not settled.
    const other = await liveOrder(env, 50);
    (env.psp.charge(other.txid).request.valor as { original: string }).original = '5.00';
    env.psp.pay(other.txid);
    await notify(env, [other.txid]);
    assert.equal((await getOrder(env.ctx.app, env.live, other.orderId)).status, 'OPENED');
    assert.equal((await chargeRow(env.ctx, other.orderId))?.state, 'MISMATCH');
    const [after] = await env.ctx.cobro.services.connectors.connections.list(env.live.id);
    assert.match(String(after?.lastError), /asks 500 centavos, but order \w+ charges 5000; the order was not settled/);
  });

  test('an order that ends unpaid has its charge removed at the PSP: on expiry, and when the payer chooses again', async (t) => {
    const env = await connected(t);
    const first = await liveOrder(env);
    // The payer goes back and chooses PIX again: the first order is replaced, its charge removed.
    const second = await payerChoosesPix(env.ctx, first.pref.id);
    assert.equal((await getOrder(env.ctx.app, env.live, first.orderId)).status, 'EXPIRED');
    await env.ctx.cobro.services.connectors.pix.sync();
    assert.equal(env.psp.charge(first.txid).status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
    assert.equal(env.psp.charge(pixTxid(second.orderId)).status, 'ATIVA');
    assert.ok(
      env.psp.requests.some(
        (r) =>
          r.operation === 'PATCH /cob/{txid}' &&
          JSON.stringify(r.body) === '{"status":"REMOVIDA_PELO_USUARIO_RECEBEDOR"}',
      ),
    );

    // The second expires with its checkout: removed too.
    env.ctx.clock.advance(16 * 60_000);
    await env.ctx.cobro.runJobs();
    assert.equal((await getOrder(env.ctx.app, env.live, second.orderId)).status, 'EXPIRED');
    assert.equal(env.psp.charge(pixTxid(second.orderId)).status, 'REMOVIDA_PELO_USUARIO_RECEBEDOR');
  });

  test('a payment the PSP took just before the order expired is recorded as paid late, not lost', async (t) => {
    const env = await connected(t);
    const { orderId, txid } = await liveOrder(env);
    env.ctx.clock.advance(16 * 60_000);
    await env.ctx.cobro.orderSweeps.expireDue();
    // Paid at the PSP before Cobro removed the charge.
    env.psp.pay(txid);
    await env.ctx.cobro.services.connectors.pix.sync();
    const order = await getOrder(env.ctx.app, env.live, orderId);
    assert.equal(order.status, 'EXPIRED');
    assert.equal(order.anomaly, 'PAID_LATE');
    assert.equal(env.psp.charge(txid).status, 'CONCLUIDA');
  });

  test('a refund is a devolucao of the Pix with an id fixed by the order; REFUNDED when the PSP says DEVOLVIDO', async (t) => {
    const env = await connected(t);
    const { ctx, live } = env;
    const refund = async (orderId: string, key: string) =>
      ctx.app.inject({
        method: 'POST',
        url: `/v1/payment_orders/${orderId}/refunds`,
        headers: { ...live.authHeaders, 'idempotency-key': key },
        payload: {},
      });

    const paid = await liveOrder(env);
    const pix = env.psp.pay(paid.txid);
    await notify(env, [paid.txid]);
    const done = await refund(paid.orderId, 'r-1');
    assert.equal(done.statusCode, 200, done.body);
    assert.equal(done.json().status, 'REFUNDED');
    const asked = env.psp.refunds.get(`${pix.endToEndId}/${pixRefundId(paid.orderId)}`);
    assert.equal(asked?.valor, '16.90');
    assert.equal(asked?.status, 'DEVOLVIDO');

    // The PSP refunded, and the process stopped before moving the order: asking again moves it, no second refund.
    const cut = await liveOrder(env);
    env.psp.pay(cut.txid);
    await notify(env, [cut.txid]);
    const closedOrder = await ctx.cobro.services.orders.get(
      { merchantId: live.id, mode: 'live', key: live.apiKey },
      cut.orderId,
    );
    assert.equal(await ctx.cobro.services.connectors.pix.refund(closedOrder), 'REFUNDED');
    assert.equal((await getOrder(ctx.app, live, cut.orderId)).status, 'CLOSED');
    const retried = await refund(cut.orderId, 'r-3');
    assert.equal(retried.json().status, 'REFUNDED', retried.body);
    assert.equal([...env.psp.refunds.keys()].filter((k) => k.endsWith(pixRefundId(cut.orderId))).length, 1);

    // A PSP that processes refunds later: the order stays CLOSED until it says DEVOLVIDO.
    env.psp.refundStatus = 'EM_PROCESSAMENTO';
    const slow = await liveOrder(env);
    env.psp.pay(slow.txid);
    await notify(env, [slow.txid]);
    const pending = await refund(slow.orderId, 'r-2');
    assert.equal(pending.statusCode, 200, pending.body);
    assert.equal(pending.json().status, 'CLOSED');
    await syncAfter(env, 21);
    assert.equal((await getOrder(ctx.app, live, slow.orderId)).status, 'CLOSED');
    env.psp.settleRefunds();
    await syncAfter(env, 21);
    assert.equal((await getOrder(ctx.app, live, slow.orderId)).status, 'REFUNDED');
    assert.equal([...env.psp.refunds.keys()].filter((k) => k.endsWith(pixRefundId(slow.orderId))).length, 1);
  });

  test('a PSP that is down or never answers leaves the order without a code; the same txid is put again, and one charge is made', async (t) => {
    const env = await connected(t, { env: { PIX_API_TIMEOUT_MS: '400' } });
    // Down: 503 on the charge.
    env.psp.fail(/^\/cob\//, 503);
    const down = await liveOrder(env);
    const without = await getOrder(env.ctx.app, env.live, down.orderId);
    assert.equal(without.status, 'OPENED');
    assert.equal(without.payment_instructions, null);
    assert.match(String((await chargeRow(env.ctx, down.orderId))?.last_error), /HTTP 503/);
    // Back: the payer's page asks again and shows the code.
    const page = await env.ctx.app.inject({ url: down.location });
    assert.ok(page.body.includes('data-test="pix-payload"'), page.body.slice(0, 300));
    assert.equal(
      (await getOrder(env.ctx.app, env.live, down.orderId)).payment_instructions?.pix_payload,
      env.psp.charge(down.txid).pixCopiaECola,
    );

    // Never answers: the PSP made the charge, its answer was lost (a crash between PUT /cob and
    // storing it looks the same). The job puts the same txid again and gets that charge back.
    env.psp.hang(/^\/cob\//);
    const lost = await liveOrder(env);
    assert.equal((await getOrder(env.ctx.app, env.live, lost.orderId)).payment_instructions, null);
    assert.equal(env.psp.charge(lost.txid).status, 'ATIVA', 'made at the PSP');
    await syncAfter(env, 6);
    const recovered = await getOrder(env.ctx.app, env.live, lost.orderId);
    assert.equal(recovered.payment_instructions?.pix_payload, env.psp.charge(lost.txid).pixCopiaECola);
    assert.equal(
      env.psp.requests.filter((r) => r.operation === 'PUT /cob/{txid}' && r.path === `/cob/${lost.txid}`).length,
      2,
    );
    assert.equal([...env.psp.charges.keys()].filter((k) => k === lost.txid).length, 1);

    // The token lapses mid-run: the next check takes a new one and goes on.
    env.psp.expireTokens();
    env.psp.pay(lost.txid);
    await notify(env, [lost.txid]);
    assert.equal((await getOrder(env.ctx.app, env.live, lost.orderId)).status, 'CLOSED');
  });

  test('with the inter profile, the notification is a bare array at the URL as registered, and it settles the order', async (t) => {
    const env = await connected(t, {}, inter);
    assert.equal(env.connection.pix?.profile, 'inter');
    const { orderId, txid } = await liveOrder(env);
    inter.pay(txid);
    const note = inter.notification(env.connection.webhookUrl, [txid]);
    assert.ok(note.body.startsWith('['));
    assert.ok(!note.path.endsWith('/pix'));
    const res = await notify(env, [txid]);
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await getOrder(env.ctx.app, env.live, orderId)).status, 'CLOSED');
    assert.deepEqual(inter.violations, []);
  });
});
