import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import type { DashboardClient } from '../support/dashboard-client.ts';
import { connectionAudits, signedInMember } from '../support/dashboard-client.ts';
import { logSink } from '../support/log-sink.ts';
import { testText } from '../support/page-text.ts';
import type { PixPspStandIn, StandInClient } from '../support/pix-psp-stand-in.ts';
import { usePixStandIn } from '../support/pix-psp-stand-in.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { ThrowawayCa } from '../support/throwaway-ca.ts';

/*
 * Settings → Payment connections, the PIX section (INTERFACE §11, §11.2), as a merchant's people
 * use it without JavaScript: the form posts the credentials and the certificate files
 * (multipart) to the PSP stand-in, which demands the client certificate on every call and
 * checks each one against the Central Bank's published description.
 */

const T = '/dashboard/test';
const PAGE = `${T}/settings/connections`;
const LIVE_PAGE = '/dashboard/settings/connections';
const PIX_KEY = 'pagamentos@loja.com.br';

const standIns = usePixStandIn();
let standIn: PixPspStandIn;
beforeEach(() => {
  standIn = standIns();
});

type Upload = { field: string; name: string; bytes: Buffer };

/** What the form is given: the text fields and the files, as a person fills it. */
type PixForm = { fields: Record<string, string>; files: Upload[] };

/** The form filled with a stand-in client's credentials and PEM certificate and key, and the stand-in's CA. */
function pemForm(client: StandInClient, change: Record<string, string> = {}): PixForm {
  return {
    fields: {
      profile: 'bcb',
      base_url: standIn.baseUrl,
      token_url: '',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      certificate_password: '',
      pix_key: PIX_KEY,
      ...change,
    },
    files: [
      { field: 'certificate', name: 'client.crt', bytes: Buffer.from(client.certificate.cert) },
      { field: 'private_key', name: 'client.key', bytes: Buffer.from(client.certificate.key) },
      { field: 'ca', name: 'psp-ca.pem', bytes: Buffer.from(standIn.ca.cert) },
    ],
  };
}

/** Reads the page (for its token), then posts the PIX form from it. */
async function connectThroughForm(
  browser: DashboardClient,
  form: PixForm,
  page = PAGE,
  options: { csrf?: string | null } = {},
): Promise<LightMyRequestResponse> {
  await browser.get(page);
  return browser.postMultipart(`${page}/pix`, form.fields, form.files, options);
}

const storedRows = async (ctx: TestApp) =>
  (await sql`select * from processor_connections where merchant_id = ${ctx.merchant.id}`.execute(ctx.cobro.database.db))
    .rows.length;

/** What must never be on a page or in a log line: the client secret and the private key's body. */
function secretsOf(client: StandInClient): string[] {
  const keyBody = client.certificate.key.split('\n').filter((line) => line !== '' && !line.startsWith('-----'));
  return [client.clientSecret, ...keyBody];
}

describeBackends('dashboard PIX connection with the PSP stand-in', (build) => {
  test('an owner connects the PSP with a PEM certificate and key on the test dashboard: a token is asked, the webhook registered, the page shows key, profile, addresses, client id and webhook URL with the secrets sealed, and the audit log names the owner', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const client = await standIn.addClient();
    const tokens = standIn.tokensIssued;

    const empty = await owner.get(PAGE);
    assert.equal(empty.statusCode, 200, empty.body);
    assert.match(empty.body, /data-test="pix-not-connected"/);
    assert.match(
      empty.body,
      /<form method="post" action="\/dashboard\/test\/settings\/connections\/pix" enctype="multipart\/form-data"/,
    );

    const res = await connectThroughForm(owner, pemForm(client));
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${PAGE}?connected=pix`);
    assert.ok(standIn.tokensIssued > tokens, 'a token was asked with the credentials and certificate');
    const hook = standIn.webhooks.get(PIX_KEY);
    assert.ok(hook, 'the webhook is registered at the PSP for the key');
    assert.equal(hook.clientId, client.clientId);
    assert.equal(await ctx.cobro.services.connectors.access.isConnected('PIX', ctx.merchant.id, 'test'), true);

    const page = await owner.get(res.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="notice"[^>]*>PIX connected\./);
    assert.equal(testText(page.body, 'pix-key'), PIX_KEY);
    assert.equal(testText(page.body, 'pix-mode'), 'Test');
    assert.equal(testText(page.body, 'pix-profile'), 'The Central Bank’s specification as written (bcb)');
    assert.equal(testText(page.body, 'pix-base-url'), standIn.baseUrl);
    assert.equal(testText(page.body, 'pix-token-url'), `${standIn.baseUrl}/oauth/token`);
    assert.equal(testText(page.body, 'pix-client-id'), client.clientId);
    assert.equal(testText(page.body, 'pix-secrets'), 'Kept sealed; never shown.');
    assert.equal(testText(page.body, 'pix-webhook-url'), hook.webhookUrl);
    assert.equal(testText(page.body, 'pix-last-notification'), 'None yet');
    assert.equal(testText(page.body, 'pix-last-error'), 'None');
    assert.doesNotMatch(page.body, /data-test="pix-connect-form"/, 'no second connection in the same mode');
    assert.match(page.body, /data-test="stripe-connect-form"/, 'Stripe’s section is there, unconnected');
    for (const secret of secretsOf(client)) {
      assert.ok(!page.body.includes(secret), `the page holds ${secret.slice(0, 10)}…`);
    }

    // The live dashboard's page is about live mode: nothing connected there.
    const live = await owner.get(LIVE_PAGE);
    assert.equal(live.statusCode, 200, live.body);
    assert.match(live.body, /data-test="pix-not-connected"[^>]*>Not connected in live mode\./);
    assert.ok(!live.body.includes(PIX_KEY), 'the live page shows the test connection');
    assert.ok(!live.body.includes(client.clientId), 'the live page shows the test connection');

    const [entry, ...more] = await connectionAudits(ctx);
    assert.equal(more.length, 0);
    assert.equal(entry?.action, 'payment_connection.create');
    assert.equal(entry?.actor, owner.email);
    assert.ok(entry?.userId, 'the signed-in user is the actor');
    assert.deepEqual(entry?.detail, {
      provider: 'pix',
      mode: 'test',
      profile: 'bcb',
      base_url: standIn.baseUrl,
      client_id: client.clientId,
      pix_key: PIX_KEY,
      webhook_url: hook.webhookUrl,
    });
  });

  test('an admin connects with a PKCS#12 bundle and its password on the live dashboard; a notification from the PSP then shows as the last one received', async (t) => {
    const ctx = await build(t);
    const admin = await signedInMember(ctx, 'admin');
    const client = await standIn.addClient();
    const bundle = await standIn.ca.pkcs12(client.certificate, 'senha-do-p12');
    const form = pemForm(client, { certificate_password: 'senha-do-p12', pix_key: '+5511912345678' });
    form.files = [
      { field: 'certificate', name: 'credenciais.p12', bytes: bundle.bytes },
      { field: 'private_key', name: '', bytes: Buffer.alloc(0) },
      { field: 'ca', name: 'psp-ca.pem', bytes: Buffer.from(standIn.ca.cert) },
    ];
    const res = await connectThroughForm(admin, form, LIVE_PAGE);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${LIVE_PAGE}?connected=pix`);
    assert.equal(await ctx.cobro.services.connectors.access.isConnected('PIX', ctx.merchant.id, 'live'), true);
    assert.equal(await ctx.cobro.services.connectors.access.isConnected('PIX', ctx.merchant.id, 'test'), false);

    const page = await admin.get(LIVE_PAGE);
    assert.equal(testText(page.body, 'pix-mode'), 'Live');
    assert.equal(testText(page.body, 'pix-key'), '+5511912345678');
    assert.equal(testText(page.body, 'pix-last-notification'), 'None yet');
    assert.ok(!page.body.includes('senha-do-p12'), 'the page holds the PKCS#12 password');
    assert.ok(!page.body.includes(bundle.bytes.toString('base64').slice(0, 40)), 'the page holds the bundle');

    // The PSP notifies the URL the page shows: the page then says when it arrived.
    const note = standIn.notification(testText(page.body, 'pix-webhook-url') ?? '', ['cobroNoSuchCharge0000000000']);
    const delivered = await ctx.app.inject({
      method: 'POST',
      url: note.path,
      headers: { 'content-type': 'application/json' },
      payload: note.body,
    });
    assert.equal(delivered.statusCode, 200, delivered.body);
    const after = await admin.get(LIVE_PAGE);
    const at = new Date(ctx.clock.now()).toISOString();
    assert.match(after.body, new RegExp(`data-test="pix-last-notification"><time datetime="${at}"`));
    assert.equal((await connectionAudits(ctx))[0]?.actor, admin.email);

    // The test dashboard's page is about test mode.
    const test = await admin.get(PAGE);
    assert.match(test.body, /data-test="pix-not-connected"/);
    assert.ok(!test.body.includes('+5511912345678'));
  });

  test('a certificate the PSP did not issue, a secret it refuses or a wrong PKCS#12 password is said beside its field, and nothing is stored or registered; a PEM certificate without its key and empty fields are refused before any call', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const client = await standIn.addClient();
    const hooks = standIn.webhooks.size;

    // A certificate of another authority: the PSP refuses the TLS connection.
    const otherCa = await ThrowawayCa.create('Not the PSP');
    t.after(() => otherCa.dispose());
    const stranger = await otherCa.client(client.clientId);
    const foreign = pemForm(client);
    foreign.files = [
      { field: 'certificate', name: 'client.crt', bytes: Buffer.from(stranger.cert) },
      { field: 'private_key', name: 'client.key', bytes: Buffer.from(stranger.key) },
      { field: 'ca', name: 'psp-ca.pem', bytes: Buffer.from(standIn.ca.cert) },
    ];
    const refusedCert = await connectThroughForm(owner, foreign);
    assert.equal(refusedCert.statusCode, 400, refusedCert.body);
    assert.match(testText(refusedCert.body, 'error-certificate') ?? '', /^API Pix credentials: .*certificate/);
    assert.match(refusedCert.body, /id="certificate"[^>]*aria-invalid="true"/);

    const wrongSecret = await connectThroughForm(
      owner,
      pemForm(client, { client_secret: 'Client_Secret_not_this_one' }),
    );
    assert.equal(wrongSecret.statusCode, 400, wrongSecret.body);
    assert.match(
      testText(wrongSecret.body, 'error-client_secret') ?? '',
      /^API Pix credentials: the PSP refused the client credentials/,
    );
    assert.ok(!wrongSecret.body.includes('Client_Secret_not_this_one'), 'the refused secret is sent back');
    assert.ok(wrongSecret.body.includes(`value="${client.clientId}"`), 'the client id stays in its field');
    assert.ok(wrongSecret.body.includes(`value="${PIX_KEY}"`), 'the PIX key stays in its field');

    const bundle = await standIn.ca.pkcs12(client.certificate, 'a-senha-certa');
    const wrongPassword = pemForm(client, { certificate_password: 'a-senha-errada' });
    wrongPassword.files = [{ field: 'certificate', name: 'credenciais.pfx', bytes: bundle.bytes }];
    const refusedBundle = await connectThroughForm(owner, wrongPassword);
    assert.equal(refusedBundle.statusCode, 400, refusedBundle.body);
    assert.match(testText(refusedBundle.body, 'error-certificate') ?? '', /cannot be used.*PKCS#12 passphrase/);
    assert.ok(!refusedBundle.body.includes('a-senha-errada'));

    // Refused before any call to the PSP.
    const calls = standIn.requests.length;
    const tokens = standIn.tokensIssued;
    const noKey = pemForm(client);
    noKey.files = noKey.files.filter((f) => f.field !== 'private_key');
    const withoutKey = await connectThroughForm(owner, noKey);
    assert.equal(withoutKey.statusCode, 400, withoutKey.body);
    assert.equal(
      testText(withoutKey.body, 'error-private_key'),
      'A PEM certificate needs its private key: choose the key file.',
    );
    const blank = await connectThroughForm(owner, {
      fields: { profile: 'bcb', base_url: '', client_id: '', client_secret: '', pix_key: '' },
      files: [],
    });
    assert.equal(blank.statusCode, 400, blank.body);
    for (const [field, message] of [
      ['base_url', 'Enter your PSP’s API Pix address.'],
      ['client_id', 'Enter the client ID.'],
      ['client_secret', 'Enter the client secret.'],
      ['certificate', 'Choose the client certificate file.'],
      ['pix_key', 'Enter your PIX key.'],
    ]) {
      assert.equal(testText(blank.body, `error-${field}`), message, field);
    }
    const plainHttp = await connectThroughForm(owner, pemForm(client, { base_url: 'http://127.0.0.1:1/api' }));
    assert.equal(plainHttp.statusCode, 400, plainHttp.body);
    assert.match(testText(plainHttp.body, 'error-base_url') ?? '', /must be https:\/\//);
    const notCa = pemForm(client);
    notCa.files = notCa.files.map((f) => (f.field === 'ca' ? { ...f, bytes: Buffer.from('not a certificate') } : f));
    const badCa = await connectThroughForm(owner, notCa);
    assert.equal(badCa.statusCode, 400, badCa.body);
    assert.equal(testText(badCa.body, 'error-ca'), 'This is not a PEM certificate (-----BEGIN CERTIFICATE-----).');
    assert.equal(standIn.requests.length, calls, 'no call reached the PSP');
    assert.equal(standIn.tokensIssued, tokens);

    assert.equal(standIn.webhooks.size, hooks, 'no webhook registered');
    assert.equal(await storedRows(ctx), 0);
    assert.deepEqual(await connectionAudits(ctx), []);
  });

  test('Test connection asks the PSP for a fresh token and the webhook of the key: OK, or why not (the webhook gone at the PSP, the PSP failing); it changes nothing', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const client = await standIn.addClient();
    assert.equal((await connectThroughForm(owner, pemForm(client))).statusCode, 303);
    await owner.get(PAGE);

    const tokens = standIn.tokensIssued;
    const ok = await owner.post(`${PAGE}/pix/test`, {});
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(standIn.tokensIssued, tokens + 1, 'a fresh token, with the stored credentials');
    assert.ok(
      standIn.requests.some((r) => r.operation === 'GET /webhook/{chave}'),
      'the webhook of the key was read',
    );
    assert.equal(
      testText(ok.body, 'pix-check-ok'),
      `Connection works: your PSP gave a token for these credentials and notifies Cobro’s webhook URL for the PIX key ${PIX_KEY}.`,
    );

    standIn.webhooks.delete(PIX_KEY);
    const gone = await owner.post(`${PAGE}/pix/test`, {});
    assert.match(
      testText(gone.body, 'pix-check-failed') ?? '',
      /^The test failed: the PSP has no webhook for the PIX key pagamentos@loja\.com\.br, so its notifications do not reach Cobro/,
    );

    standIn.fail(/^\/webhook\//, 503);
    const down = await owner.post(`${PAGE}/pix/test`, {});
    assert.equal(down.statusCode, 200, down.body);
    assert.match(testText(down.body, 'pix-check-failed') ?? '', /^The test failed: .*503/);
    for (const secret of secretsOf(client)) {
      assert.ok(!down.body.includes(secret));
    }
    assert.equal(await storedRows(ctx), 1);
    assert.deepEqual(
      (await connectionAudits(ctx)).map((e) => e.action),
      ['payment_connection.create'],
    );

    // Without a connection there is nothing to test.
    const noneLive = await owner.submit(LIVE_PAGE, `${LIVE_PAGE}/pix/test`, {});
    assert.equal(noneLive.statusCode, 404, noneLive.body);
  });

  test('Disconnect, after its confirmation page, removes the webhook at the PSP and the connection; audited under the user', async (t) => {
    const ctx = await build(t);
    const admin = await signedInMember(ctx, 'admin');
    const client = await standIn.addClient();
    assert.equal((await connectThroughForm(admin, pemForm(client))).statusCode, 303);
    assert.ok(standIn.webhooks.has(PIX_KEY));

    const page = await admin.get(PAGE);
    assert.match(page.body, new RegExp(`href="${PAGE}/pix/remove" data-test="pix-disconnect"`));
    const confirm = await admin.get(`${PAGE}/pix/remove`);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.match(confirm.body, /Disconnect PIX from test mode\?/);
    assert.ok(confirm.body.includes(PIX_KEY), 'the confirmation names the PIX key');
    const res = await admin.post(`${PAGE}/pix/remove`, {});
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${PAGE}?removed=pix`);
    assert.equal(standIn.webhooks.has(PIX_KEY), false, 'the webhook is gone at the PSP');
    assert.equal(await storedRows(ctx), 0);
    assert.equal(await ctx.cobro.services.connectors.access.isConnected('PIX', ctx.merchant.id, 'test'), false);

    const after = await admin.get(res.headers.location as string);
    assert.match(after.body, /PIX disconnected: its credentials and certificate are forgotten/);
    assert.match(after.body, /data-test="pix-connect-form"/);

    const entries = await connectionAudits(ctx);
    assert.deepEqual(entries.map((e) => e.action).sort(), ['payment_connection.create', 'payment_connection.remove']);
    const removal = entries.find((e) => e.action === 'payment_connection.remove');
    assert.equal(removal?.actor, admin.email);
    assert.equal(removal?.detail.webhook_endpoint_deleted, true);
    assert.equal((await admin.get(`${PAGE}/pix/remove`)).statusCode, 404, 'nothing left to disconnect');
  });

  test('viewers and developers are refused the PIX form and its actions (403, audited), and nothing reaches the PSP', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const client = await standIn.addClient();
    assert.equal((await connectThroughForm(owner, pemForm(client))).statusCode, 303);
    const other = await standIn.addClient();
    const calls = standIn.requests.length;

    for (const role of ['viewer', 'developer']) {
      const member = await signedInMember(ctx, role);
      const page = await member.get(PAGE);
      assert.equal(page.statusCode, 403, `${role} reads the page`);
      assert.ok(!page.body.includes(PIX_KEY), `${role} sees the PIX key`);
      assert.equal((await member.get(`${PAGE}/pix/remove`)).statusCode, 403);
      // A form's token from a page the role may read (the refusal page carries none).
      await member.get(`${T}/settings`);
      const form = pemForm(other);
      const connect = await member.postMultipart(`${PAGE}/pix`, form.fields, form.files);
      assert.equal(connect.statusCode, 403, `${role} connects`);
      for (const path of [`${PAGE}/pix/test`, `${PAGE}/pix/remove`]) {
        await member.get(`${T}/settings`);
        assert.equal((await member.post(path, {})).statusCode, 403, `${role} POST ${path}`);
      }
      const refused = (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null)).filter(
        (e) => e.action === 'access.denied' && e.actor === member.email,
      );
      assert.equal(refused.length, 5, `${role}'s refusals are in the audit log`);
      assert.deepEqual(
        refused.map((e) => [e.detail.reason, e.detail.attempted]),
        refused.map(() => ['role', 'settings.write']),
      );
    }
    assert.equal(standIn.requests.length, calls, 'no call reached the PSP');
    assert.equal(standIn.webhooks.get(PIX_KEY)?.clientId, client.clientId, 'the connection is untouched');
    assert.deepEqual(
      (await connectionAudits(ctx)).map((e) => e.action),
      ['payment_connection.create'],
    );
  });

  test('a post without the CSRF token is refused, reaches no PSP and changes nothing', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const client = await standIn.addClient();
    const calls = standIn.requests.length;
    const res = await connectThroughForm(owner, pemForm(client), PAGE, { csrf: null });
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(standIn.requests.length, calls);
    assert.equal(await storedRows(ctx), 0);

    assert.equal((await connectThroughForm(owner, pemForm(client))).statusCode, 303);
    const removal = await owner.post(`${PAGE}/pix/remove`, {}, { csrf: null });
    assert.equal(removal.statusCode, 403);
    const check = await owner.post(`${PAGE}/pix/test`, {}, { csrf: null });
    assert.equal(check.statusCode, 403);
    assert.equal(await storedRows(ctx), 1);
    assert.ok(standIn.webhooks.has(PIX_KEY));
  });

  test('the PIX section reads in Spanish and Portuguese', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const expected = {
      es: ['PIX a través de tu banco (API Pix)', 'Clave PIX', 'Conectar PIX', 'Certificado de cliente'],
      pt: ['PIX pelo seu banco (API Pix)', 'Chave PIX', 'Conectar PIX', 'Certificado do cliente'],
    };
    for (const [lang, words] of Object.entries(expected)) {
      const page = await owner.get(PAGE, { 'accept-language': lang === 'es' ? 'es-MX,es;q=0.9' : 'pt-BR' });
      assert.equal(page.statusCode, 200);
      for (const word of words) {
        assert.ok(page.body.includes(word), `${lang}: ${word}`);
      }
      assert.ok(!page.body.includes('PIX through your bank'), `${lang} has the English title`);
    }
  });

  test('neither the pages nor the server log ever hold the client secret, the private key, the PKCS#12 bundle or its password', async (t) => {
    const sink = logSink();
    const ctx = await build(t, { productionLogger: true, logStream: sink.stream, env: { LOG_LEVEL: 'trace' } });
    const owner = await signedInMember(ctx, 'owner');
    const pages: string[] = [];
    const keep = (res: LightMyRequestResponse) => {
      pages.push(res.body);
      return res;
    };
    const pem = await standIn.addClient();
    const p12 = await standIn.addClient();
    const bundle = await standIn.ca.pkcs12(p12.certificate, 'senha-secreta-p12');
    const bundleForm = (password: string) => {
      const form = pemForm(p12, { certificate_password: password, pix_key: '+5511912345678' });
      form.files = [{ field: 'certificate', name: 'credenciais.p12', bytes: bundle.bytes }, form.files[2] as Upload];
      return form;
    };

    keep(await connectThroughForm(owner, pemForm(pem, { client_secret: `${pem.clientSecret}x` })));
    keep(await connectThroughForm(owner, pemForm(pem)));
    keep(await owner.get(PAGE));
    keep(await owner.post(`${PAGE}/pix/test`, {}));
    keep(await owner.get(`${PAGE}/pix/remove`));
    keep(await owner.post(`${PAGE}/pix/remove`, {}));
    keep(await connectThroughForm(owner, bundleForm('senha-errada-p12')));
    keep(await connectThroughForm(owner, bundleForm('senha-secreta-p12'), LIVE_PAGE));
    keep(await owner.get(LIVE_PAGE));
    keep(await owner.submit(LIVE_PAGE, `${LIVE_PAGE}/pix/test`, {}));
    assert.equal(await storedRows(ctx), 1, 'the bundle connected in live mode');

    ctx.cobro.logger.flush?.();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(sink.lines.length > 10, 'the run wrote log lines');
    const log = sink.lines.join('\n');
    const html = pages.join('\n');
    const secrets = [
      ...secretsOf(pem),
      `${pem.clientSecret}x`,
      ...secretsOf(p12),
      'senha-secreta-p12',
      'senha-errada-p12',
      bundle.bytes.toString('base64').slice(0, 64),
    ];
    for (const secret of secrets) {
      assert.ok(!html.includes(secret), `a page holds ${secret.slice(0, 10)}…`);
      assert.ok(!log.includes(secret), `a log line holds ${secret.slice(0, 10)}…`);
    }
    assert.ok(!/PRIVATE KEY/.test(log), 'no key-shaped text in the logs');
  });
});
