import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import { sql } from 'kysely';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { expectAppError } from '../support/app-errors.ts';
import type { PixPspStandIn } from '../support/pix-psp-stand-in.ts';
import { connectInput, usePixStandIn } from '../support/pix-psp-stand-in.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/*
 * Connecting a merchant's PSP through its API Pix (INTERFACE §11.2) against the PSP stand-in,
 * which demands the client certificate and checks every call against the Central Bank's
 * published description.
 */

const standIns = usePixStandIn();
let standIn: PixPspStandIn;
beforeEach(() => {
  standIn = standIns();
});

describeBackends('API Pix connections with the PSP stand-in', (build) => {
  const rawRows = async (ctx: TestApp, merchantId: string) =>
    (await sql`select * from processor_connections where merchant_id = ${merchantId}`.execute(ctx.cobro.database.db))
      .rows as Record<string, unknown>[];

  test('connecting checks the credentials, registers the webhook for the key, keeps the secrets sealed, and live PIX is then offered', async (t) => {
    const ctx = await build(t);
    const { connecting, connections, access } = ctx.cobro.services.connectors;
    // A live merchant with no PIX key in its settings: live PIX is not offered.
    const merchant = await ctx.createMerchant('live');
    const pixOffered = async () =>
      (await ctx.cobro.services.availability.offerOf(merchant.id, 'live')).whyNot(
        (await ctx.cobro.services.paymentMethods.all()).find((m) => m.type === 'PIX' && m.status === 'ENABLED') ??
          assert.fail('no PIX method'),
      );
    assert.equal((await pixOffered())?.code, 'pix_key_missing');

    const client = await standIn.addClient();
    const view = await connecting.connectPix(merchant.id, connectInput(standIn, client, 'live'), CLI_ACTOR);
    assert.equal(view.mode, 'live');
    assert.equal(view.provider, 'pix');
    assert.match(view.webhookUrl, /^http:\/\/127\.0\.0\.1:3000\/connectors\/pix\/webhooks\/[A-Za-z0-9]{24}$/);
    assert.equal(standIn.webhooks.get('pagamentos@loja.com.br')?.webhookUrl, view.webhookUrl);
    assert.equal(view.pix?.tokenUrl, `${standIn.baseUrl}/oauth/token`);
    assert.ok(standIn.requests.some((r) => r.operation === 'token'));
    assert.equal(await pixOffered(), null, 'live PIX is offered through the connection');
    assert.equal(await access.isConnected('PIX', merchant.id, 'live'), true);
    assert.equal(await access.isConnected('PIX', merchant.id, 'test'), false);
    assert.equal(await access.isConnected('CARD', merchant.id, 'live'), false);

    // The row as stored: no secret, no key in clear.
    const [row] = await rawRows(ctx, merchant.id);
    const stored = JSON.stringify(row, (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    for (const secret of [client.clientSecret, client.certificate.key.split('\n')[1] ?? 'missing', 'PRIVATE KEY']) {
      assert.ok(!stored.includes(secret), `the stored row holds ${secret.slice(0, 12)}…`);
    }
    assert.match(String(row?.secret_key_sealed), /^v1\./);

    // Listed without secrets; the access opens them for a call.
    const listed = JSON.stringify(await connections.list(merchant.id));
    assert.ok(!listed.includes(client.clientSecret) && !listed.includes('PRIVATE KEY'));
    const opened = await access.pixAccess(merchant.id, 'live');
    assert.equal(opened?.access.clientSecret, client.clientSecret);

    const entries = (await ctx.cobro.services.dashboard.audit.list(merchant.id, null)).filter((a) =>
      a.action.startsWith('payment_connection.'),
    );
    assert.equal(entries.length, 1);
    assert.equal(entries[0]?.action, 'payment_connection.create');
    assert.equal(entries[0]?.actor, 'cli');
    assert.equal((entries[0]?.detail as Record<string, unknown> | undefined)?.pix_key, 'pagamentos@loja.com.br');
    assert.ok(!JSON.stringify(entries).includes(client.clientSecret));
  });

  test('refused credentials, a refused webhook or a PSP that is down store nothing; http and bad flags are refused before any call', async (t) => {
    const ctx = await build(t);
    const { connecting } = ctx.cobro.services.connectors;
    const client = await standIn.addClient();
    const input = connectInput(standIn, client, 'test', '12345678000195');
    const requests = standIn.requests.length;
    await expectAppError(
      connecting.connectPix(ctx.merchant.id, { ...input, baseUrl: 'http://127.0.0.1:1/api' }, CLI_ACTOR),
      'WRONG_INPUT',
      /base URL: API Pix calls use mutual TLS, so the URL must be https:\/\//,
    );
    await expectAppError(
      connecting.connectPix(ctx.merchant.id, { ...input, profile: 'itau', pixKey: '' }, CLI_ACTOR),
      'WRONG_INPUT',
      /profile: must be one of bcb, efi, inter.*pix key: required/,
    );
    assert.equal(standIn.requests.length, requests, 'refused before any call to the PSP');

    await expectAppError(
      connecting.connectPix(ctx.merchant.id, { ...input, clientSecret: 'not-the-secret' }, CLI_ACTOR),
      'WRONG_INPUT',
      /API Pix credentials: the PSP refused the client credentials/,
    );
    standIn.fail(/^\/webhook\//, 503);
    await expectAppError(
      connecting.connectPix(ctx.merchant.id, input, CLI_ACTOR),
      'SERVICE_UNAVAILABLE',
      /webhook registration .*HTTP 503.*try again shortly/,
    );
    assert.equal((await rawRows(ctx, ctx.merchant.id)).length, 0);
    assert.equal(standIn.webhooks.has('12345678000195'), false);
  });

  test('removing the connection removes the webhook at the PSP, then the connection; a second one in a mode waits for that', async (t) => {
    const ctx = await build(t);
    const { connecting, removal, access } = ctx.cobro.services.connectors;
    const client = await standIn.addClient();
    await connecting.connectPix(ctx.merchant.id, connectInput(standIn, client, 'test', '+5511912345678'), CLI_ACTOR);
    await expectAppError(
      connecting.connectPix(ctx.merchant.id, connectInput(standIn, client, 'test', '+5511912345678'), CLI_ACTOR),
      'CONFLICT',
      /already has a pix connection in test mode; remove it first/,
    );
    const result = await removal.remove(ctx.merchant.id, 'pix', 'test', CLI_ACTOR);
    assert.equal(result.endpointDeleted, true);
    assert.equal(standIn.webhooks.has('+5511912345678'), false);
    assert.equal((await rawRows(ctx, ctx.merchant.id)).length, 0);
    assert.equal(await access.isConnected('PIX', ctx.merchant.id, 'test'), false);
    const actions = (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null))
      .map((a) => a.action)
      .filter((a) => a.startsWith('payment_connection.'))
      .sort();
    assert.deepEqual(actions, ['payment_connection.create', 'payment_connection.remove']);
  });
});
