import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCobro as cobro } from '../support/dist.ts';
import { usePixStandIn } from '../support/pix-psp-stand-in.ts';

// `cobro connect pix|show|remove` as an operator runs it (compiled, in its own process), against
// the PSP stand-in on loopback that demands the client certificate (INTERFACE §11.2).

const standIns = usePixStandIn();

test('cobro connect pix / show / remove with the PSP stand-in: the JSON as specified, PEM or PKCS#12, no secret printed', async (t) => {
  const standIn = standIns();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-connect-pix-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
    PUBLIC_URL: 'https://pay.loja.example',
    SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
  };
  const created = await cobro(['merchant', 'create', '--name', 'Loja Ana', '--json'], env);
  assert.equal(created.code, 0, created.stderr);
  const merchantId = JSON.parse(created.stdout).merchant_id as string;
  const client = await standIn.addClient();
  const caFile = join(dir, 'psp-ca.pem');
  writeFileSync(caFile, standIn.ca.cert);
  const printed: string[] = [];
  const flags = (mode: string, pixKey: string) => [
    'connect',
    'pix',
    '--merchant',
    merchantId,
    '--mode',
    mode,
    '--base-url',
    standIn.baseUrl,
    '--client-id',
    client.clientId,
    '--client-secret',
    client.clientSecret,
    '--ca',
    caFile,
    '--pix-key',
    pixKey,
  ];

  const live = await cobro(
    [
      ...flags('live', 'pagamentos@loja.com.br'),
      '--cert',
      client.certificate.certFile,
      '--key',
      client.certificate.keyFile,
      '--json',
    ],
    env,
  );
  printed.push(live.stdout, live.stderr);
  assert.equal(live.code, 0, live.stderr);
  const answer = JSON.parse(live.stdout);
  assert.deepEqual(Object.keys(answer), ['merchant_id', 'mode', 'provider', 'webhook_url']);
  assert.equal(answer.merchant_id, merchantId);
  assert.equal(answer.mode, 'live');
  assert.equal(answer.provider, 'pix');
  assert.match(answer.webhook_url, /^https:\/\/pay\.loja\.example\/connectors\/pix\/webhooks\/[A-Za-z0-9]{24}$/);
  assert.equal(standIn.webhooks.get('pagamentos@loja.com.br')?.webhookUrl, answer.webhook_url);

  // The test mode's connection with a PKCS#12 bundle, at its own URL.
  const bundle = await standIn.ca.pkcs12(client.certificate, 'p12-segredo');
  const test = await cobro(
    [...flags('test', '+5511912345678'), '--cert', bundle.file, '--cert-passphrase', 'p12-segredo', '--json'],
    env,
  );
  printed.push(test.stdout, test.stderr);
  assert.equal(test.code, 0, test.stderr);
  assert.notEqual(JSON.parse(test.stdout).webhook_url, answer.webhook_url);

  const refused = await cobro(
    [...flags('live', 'x@loja.com.br'), '--cert', client.certificate.certFile, '--key', client.certificate.keyFile],
    env,
  );
  printed.push(refused.stdout, refused.stderr);
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /already has a pix connection in live mode/);
  const missing = await cobro(['connect', 'pix', '--merchant', merchantId, '--mode', 'live'], env);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /missing: --base-url, --client-id, --client-secret, --cert, --pix-key/);

  const show = await cobro(['connect', 'show', '--merchant', merchantId, '--json'], env);
  printed.push(show.stdout, show.stderr);
  assert.equal(show.code, 0, show.stderr);
  const listed = JSON.parse(show.stdout) as Record<string, unknown>[];
  assert.deepEqual(
    listed.map((c) => [c.provider, c.mode, c.webhook_url === answer.webhook_url]),
    [
      ['pix', 'live', true],
      ['pix', 'test', false],
    ],
  );

  const remove = await cobro(
    ['connect', 'remove', '--merchant', merchantId, '--provider', 'pix', '--mode', 'live'],
    env,
  );
  printed.push(remove.stdout, remove.stderr);
  assert.equal(remove.code, 0, remove.stderr);
  assert.equal(standIn.webhooks.has('pagamentos@loja.com.br'), false);
  const after = await cobro(['connect', 'show', '--merchant', merchantId, '--json'], env);
  assert.deepEqual(
    (JSON.parse(after.stdout) as Record<string, unknown>[]).map((c) => c.mode),
    ['test'],
  );

  const all = printed.join('\n');
  for (const secret of [client.clientSecret, 'p12-segredo', 'PRIVATE KEY']) {
    assert.ok(!all.includes(secret), `the command line printed ${secret.slice(0, 10)}…`);
  }
});
