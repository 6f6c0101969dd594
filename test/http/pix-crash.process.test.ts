import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pixTxid } from '../../src/domain/connectors/pix-charge.ts';
import { runCobro } from '../support/dist.ts';
import { usePixStandIn } from '../support/pix-psp-stand-in.ts';
import { startCobroProcess, until } from '../support/processes.ts';
import { BRL_PIX_ID } from './helpers.ts';

// kill -9 between `PUT /cob/{txid}` and storing its answer, with the service as production runs
// it (compiled, its own process, its jobs on): the PSP made the charge, the process died before
// reading the answer. The restarted service puts the same txid again, gets that charge back, and
// shows its code: one charge at the PSP, whatever the crash.

const standIns = usePixStandIn();
const PUBLIC_URL = 'http://127.0.0.1:3000';

test('a process killed between PUT /cob and storing it: after a restart the order shows the same charge, and there is one', async (t) => {
  const standIn = standIns();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-pix-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
    PUBLIC_URL,
    SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
    // Long enough that the kill, not the time limit, ends the call.
    PIX_API_TIMEOUT_MS: '120000',
  };
  const merchant = JSON.parse((await runCobro(['merchant', 'create', '--name', 'Loja Ana', '--json'], env)).stdout);
  const keys = JSON.parse(
    (await runCobro(['keys', 'create', '--merchant', merchant.merchant_id, '--mode', 'live', '--json'], env)).stdout,
  );
  const client = await standIn.addClient();
  const caFile = join(dir, 'psp-ca.pem');
  writeFileSync(caFile, standIn.ca.cert);
  const connected = await runCobro(
    [
      'connect',
      'pix',
      '--merchant',
      merchant.merchant_id,
      '--mode',
      'live',
      '--base-url',
      standIn.baseUrl,
      '--client-id',
      client.clientId,
      '--client-secret',
      client.clientSecret,
      '--cert',
      client.certificate.certFile,
      '--key',
      client.certificate.keyFile,
      '--ca',
      caFile,
      '--pix-key',
      'pagamentos@loja.com.br',
      '--json',
    ],
    env,
  );
  assert.equal(connected.code, 0, connected.stderr);
  const webhookUrl = JSON.parse(connected.stdout).webhook_url as string;
  const auth = { 'x-api-key': keys.api_key, 'x-api-secret': keys.api_secret };

  const first = await startCobroProcess(t, env);
  const base = `http://127.0.0.1:${first.port}`;
  const created = await fetch(`${base}/v1/checkout_preferences`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'pref-1' },
    body: JSON.stringify({ type: 'PAYMENT', amount: 42.5, currency: 'BRL', title: 'Pedido 7', origin: 'API' }),
  });
  assert.equal(created.status, 201, await created.clone().text());
  const pref = (await created.json()) as { id: string };

  // The payer chooses PIX with a plain form post; the PSP makes the charge and its answer never comes.
  const page = await fetch(`${base}/checkout/${pref.id}`);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const token = /name="csrf_token" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  standIn.hang(/^\/cob\//);
  const posting = fetch(`${base}/checkout/${pref.id}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, origin: PUBLIC_URL },
    body: new URLSearchParams({
      csrf_token: token,
      email: 'ana@example.com',
      first_name: 'Ana',
      last_name: 'Lima',
      payment_method_id: BRL_PIX_ID,
    }).toString(),
  }).catch((error: unknown) => error);
  await until('the charge at the PSP', () => standIn.requests.some((r) => r.operation === 'PUT /cob/{txid}'), 60_000);
  first.child.kill('SIGKILL');
  assert.equal(await first.exit, null, 'killed by the signal');
  assert.ok((await posting) instanceof Error, 'the payer’s post got no answer');
  const put = standIn.requests.find((r) => r.operation === 'PUT /cob/{txid}');
  const txid = String(put?.path).replace('/cob/', '');

  // Restarted: the pix-sync job finds the charge it had not stored and puts the same txid again.
  const second = await startCobroProcess(t, env);
  const again = `http://127.0.0.1:${second.port}`;
  let order: { id: string; status: string; payment_instructions: { pix_payload?: string } | null } | undefined;
  await until(
    'the order to show the PSP’s code',
    async () => {
      const res = await fetch(`${again}/v1/payment_orders?checkout_preference_id=${pref.id}`, { headers: auth });
      order = ((await res.json()) as { data: NonNullable<typeof order>[] }).data[0];
      return Boolean(order?.payment_instructions?.pix_payload);
    },
    60_000,
  );
  assert.equal(pixTxid(order?.id ?? ''), txid);
  assert.equal(order?.payment_instructions?.pix_payload, standIn.charge(txid).pixCopiaECola);
  assert.equal([...standIn.charges.keys()].length, 1, 'one charge at the PSP');
  assert.equal(standIn.requests.filter((r) => r.operation === 'PUT /cob/{txid}').length, 2);

  // Paid and notified as the PSP does: the restarted service settles it.
  standIn.pay(txid);
  const note = standIn.notification(webhookUrl, [txid]);
  const notified = await fetch(`${again}${note.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: note.body,
  });
  assert.equal(notified.status, 200, await notified.text());
  const closed = await fetch(`${again}/v1/payment_orders/${order?.id}`, { headers: auth });
  assert.equal(((await closed.json()) as { status: string }).status, 'CLOSED');
});
