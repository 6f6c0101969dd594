import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCobro as cobro } from '../support/dist.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';

// `cobro connect stripe|show|remove` as an operator runs it (compiled, in its own process),
// against the Stripe stand-in named by STRIPE_API_URL.

const standIns = useStripeStandIn();

test('cobro connect stripe / show / remove with the Stripe stand-in: the JSON as specified, no secret ever printed', async (t) => {
  const standIn = standIns();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-connect-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'cobro.db')}`,
    PUBLIC_URL: 'https://pay.tienda.example',
    SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=',
    STRIPE_API_URL: standIn.url,
  };
  const created = await cobro(['merchant', 'create', '--name', 'Tienda Ana', '--json'], env);
  assert.equal(created.code, 0, created.stderr);
  const merchantId = JSON.parse(created.stdout).merchant_id as string;
  const live = standIn.addAccount({ live: true, name: 'Tienda Ana' });
  const printed: string[] = [];

  const connect = await cobro(
    [
      'connect',
      'stripe',
      '--merchant',
      merchantId,
      '--secret-key',
      live.secretKey,
      '--publishable-key',
      live.publishableKey,
      '--json',
    ],
    env,
  );
  printed.push(connect.stdout, connect.stderr);
  assert.equal(connect.code, 0, connect.stderr);
  const answer = JSON.parse(connect.stdout);
  assert.deepEqual(Object.keys(answer), [
    'merchant_id',
    'mode',
    'provider',
    'account_id',
    'webhook_url',
    'webhook_endpoint_id',
  ]);
  assert.equal(answer.merchant_id, merchantId);
  assert.equal(answer.mode, 'live');
  assert.equal(answer.provider, 'stripe');
  assert.equal(answer.account_id, live.id);
  assert.match(answer.webhook_url, /^https:\/\/pay\.tienda\.example\/connectors\/stripe\/webhooks\/[A-Za-z0-9]+$/);
  const endpoint = standIn.webhookEndpoints.get(answer.webhook_endpoint_id);
  assert.equal(endpoint?.url, answer.webhook_url);

  const show = await cobro(['connect', 'show', '--merchant', merchantId, '--json'], env);
  printed.push(show.stdout, show.stderr);
  assert.equal(show.code, 0, show.stderr);
  const [listed] = JSON.parse(show.stdout);
  assert.equal(listed.mode, 'live');
  assert.equal(listed.account_id, live.id);
  assert.equal(listed.webhook_url, answer.webhook_url);
  const human = await cobro(['connect', 'show', '--merchant', merchantId], env);
  printed.push(human.stdout, human.stderr);
  assert.match(human.stdout, /stripe live {2}account acct_/);

  const mixed = await cobro(
    [
      'connect',
      'stripe',
      '--merchant',
      merchantId,
      '--secret-key',
      `sk_test_${'1'.repeat(24)}`,
      '--publishable-key',
      live.publishableKey,
    ],
    env,
  );
  printed.push(mixed.stdout, mixed.stderr);
  assert.equal(mixed.code, 2);
  assert.match(mixed.stderr, /the keys are of two modes/);

  const remove = await cobro(
    ['connect', 'remove', '--merchant', merchantId, '--provider', 'stripe', '--mode', 'live'],
    env,
  );
  printed.push(remove.stdout, remove.stderr);
  assert.equal(remove.code, 0, remove.stderr);
  assert.equal(standIn.webhookEndpoints.has(answer.webhook_endpoint_id), false);
  const empty = await cobro(['connect', 'show', '--merchant', merchantId, '--json'], env);
  assert.deepEqual(JSON.parse(empty.stdout), []);

  const all = printed.join('\n');
  for (const secret of [live.secretKey, endpoint?.secret ?? 'missing', `sk_test_${'1'.repeat(24)}`]) {
    assert.ok(!all.includes(secret), `the command line printed ${secret.slice(0, 10)}…`);
  }
  assert.ok(!/sk_live_|sk_test_|whsec_/.test(all));
});
