import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { pixTxid } from '../../src/domain/connectors/pix-charge.ts';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { createPaymentLink, createPreference } from '../support/builders.ts';
import { getOrder, pay } from '../support/payments.ts';
import type { PixPspStandIn } from '../support/pix-psp-stand-in.ts';
import { connectInput, usePixStandIn } from '../support/pix-psp-stand-in.ts';
import { describeBackends } from '../support/test-app.ts';

/*
 * A PIX subscription of a merchant whose PSP is connected (test mode, a homologation PSP):
 * the first payment and each renewal are charges at the PSP, and the renewal notice mails the
 * PSP's code once the charge is made.
 */

const DAY_MS = 86_400_000;

const standIns = usePixStandIn();
let standIn: PixPspStandIn;
beforeEach(() => {
  standIn = standIns();
});

describeBackends('PIX subscriptions through the merchant’s PSP', (build) => {
  test('the first payment and the renewal are charges at the PSP; the renewal notice carries the PSP’s code', async (t) => {
    const ctx = await build(t);
    const client = await standIn.addClient();
    const connection = await ctx.cobro.services.connectors.connecting.connectPix(
      ctx.merchant.id,
      connectInput(standIn, client, 'test', `sub-${ctx.merchant.id.slice(0, 6).toLowerCase()}@loja.com.br`),
      CLI_ACTOR,
    );
    const notify = async (txid: string) => {
      const note = standIn.notification(connection.webhookUrl, [txid]);
      const res = await ctx.app.inject({
        method: 'POST',
        url: note.path,
        headers: { 'content-type': 'application/json' },
        payload: note.body,
      });
      assert.equal(res.statusCode, 200, res.body);
    };
    const link = await createPaymentLink(ctx.app, ctx.merchant, {
      title: 'Revista Mensal',
      amount: 30,
      currency: 'BRL',
      interval_type: 'MONTH',
      interval_count: 3,
    });
    const pref = await createPreference(ctx.app, ctx.merchant, {
      type: 'SUBSCRIPTION',
      payment_link_id: link.id,
      payment_method_types: ['PIX'],
    });
    const started = await pay(ctx.app, ctx.merchant, pref.id, {
      outcome: 'PENDING',
      payer: { email: 'ana@example.com', first_name: 'Ana', last_name: 'Souza' },
    });
    assert.equal(started.statusCode, 201, started.body);
    const first = started.json();
    assert.equal(first.payment_instructions?.pix_payload, standIn.charge(pixTxid(first.id)).pixCopiaECola);
    standIn.pay(pixTxid(first.id));
    await notify(pixTxid(first.id));
    assert.equal((await getOrder(ctx.app, ctx.merchant, first.id)).status, 'CLOSED');
    const recId = String(first.recurrent_payment_id);
    const rec = await ctx.app.inject({ url: `/v1/recurrent_payments/${recId}`, headers: ctx.merchant.authHeaders });
    assert.equal(rec.json().status, 'ACTIVE', rec.body);

    // The renewal opens before its due date: a charge at the PSP, and a notice with its code.
    ctx.clock.advance(Date.parse(String(rec.json().next_payment_date)) - ctx.clock.now().getTime() - 2 * DAY_MS);
    await ctx.cobro.runJobs();
    const open = await ctx.app.inject({
      url: `/v1/payment_orders?recurrent_payment_id=${recId}&status=OPENED`,
      headers: ctx.merchant.authHeaders,
    });
    const renewal = open.json().data[0] as { id: string; payment_instructions: { pix_payload: string } | null };
    assert.ok(renewal, open.body);
    const charge = standIn.charge(pixTxid(renewal.id));
    assert.equal(renewal.payment_instructions?.pix_payload, charge.pixCopiaECola);
    assert.equal((charge.request.valor as { original: string }).original, '30.00');
    const mails = await ctx.app.inject({ url: '/v1/test_helpers/emails', headers: ctx.merchant.authHeaders });
    const notice = (mails.json().data as { to: string; text: string }[]).find((m) => m.to === 'ana@example.com');
    assert.ok(notice?.text.includes(charge.pixCopiaECola), mails.body);

    standIn.pay(pixTxid(renewal.id));
    await notify(pixTxid(renewal.id));
    assert.equal((await getOrder(ctx.app, ctx.merchant, renewal.id)).status, 'CLOSED');
  });
});
