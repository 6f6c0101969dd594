import assert from 'node:assert/strict';
import dns from 'node:dns';
import { appendFileSync, mkdirSync } from 'node:fs';
import type { AddressInfo, Socket } from 'node:net';
import net from 'node:net';
import { hostname } from 'node:os';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { AddressPolicy } from '../../src/providers/webhooks/address-policy.ts';
import type { ConnectTarget, Resolver } from '../../src/providers/webhooks/http-sender.ts';
import { createWebhookSender } from '../../src/providers/webhooks/http-sender.ts';
import { startCanary, startChaosReceiver } from '../support/chaos-receiver.ts';
import { pay } from '../support/payments.ts';
import type { Backend, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../support/webhook-receiver.ts';

/**
 * R17, the SSRF table, with the default configuration (no development switch): every target is
 * refused when saved where that is decidable, and otherwise when sent, before any connection.
 * A canary listener on loopback (127.0.0.1 and [::1]) counts inbound connections: it must see none.
 */

const REPORTS_DIR = fileURLToPath(new URL('../../reports/', import.meta.url));

const canary = await startCanary();
after(() => canary.close());
const C = canary.port;

/** Targets that point at the canary (loopback, written every way): safe to send to in a test. */
const LOOPBACK_TARGETS: readonly string[] = [
  `http://127.0.0.1:${C}/hook`,
  `http://127.1:${C}/hook`,
  `http://2130706433:${C}/hook`,
  `http://0x7f000001:${C}/hook`,
  `http://0177.0.0.1:${C}/hook`,
  `http://017700000001:${C}/hook`,
  `http://0x7f.1:${C}/hook`,
  `http://127.0.0.1.:${C}/hook`,
  `http://127.255.255.254:${C}/hook`,
  `http://0.0.0.0:${C}/hook`,
  `http://0:${C}/hook`,
  `http://[::1]:${C}/hook`,
  `http://[::]:${C}/hook`,
  `http://[::ffff:127.0.0.1]:${C}/hook`,
  `http://[::ffff:7f00:1]:${C}/hook`,
  `http://[0:0:0:0:0:ffff:7f00:1]:${C}/hook`,
  `http://[::127.0.0.1]:${C}/hook`,
  `http://localhost:${C}/hook`,
  `http://LOCALHOST:${C}/hook`,
  `http://x.localhost:${C}/hook`,
  `https://127.0.0.1:${C}/hook`,
  `http://127.0.0.1:22/`,
  `http://127.0.0.1:6379/`,
  `http://[::1]:11211/`,
];

/** Targets off loopback: only ever saved (refused), never sent to, so no packet leaves the host. */
const OTHER_TARGETS: readonly string[] = [
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/latest/meta-data/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:a9fe:a9fe::]/',
  'http://[2001::a9fe:a9fe]/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://metadata.google.internal./computeMetadata/v1/',
  'http://localhost./hook',
  'http://x.localhost./hook',
  'http://printer.local/hook',
  'http://10.0.0.1/',
  'http://10.255.255.254:2375/',
  'http://172.16.0.1/',
  'http://172.31.255.254/',
  'http://192.168.0.1/',
  'http://192.168.255.254/',
  'http://100.64.0.1/',
  'http://100.127.255.254/',
  'http://198.18.0.1/',
  'http://198.19.255.254/',
  'http://[fc00::1]/',
  'http://[fd12:3456:789a::1]/',
  'http://[fe80::1]/',
  'http://[febf::1]/',
  'http://[fec0::1]/',
  'http://224.0.0.1/',
  'http://239.255.255.250:1900/',
  'http://255.255.255.255/',
  'http://[ff02::1]/',
  'http://user:pass@hooks.example.com/hook',
  'http://user@hooks.example.com/hook',
  `http://hooks.example.com:${C}@127.0.0.1:${C}/hook`,
  'file:///etc/passwd',
  `gopher://127.0.0.1:${C}/_GET`,
  'ftp://hooks.example.com/hook',
  'data:text/plain,hello',
  'javascript:alert(1)',
  'hooks.example.com/hook',
  '//hooks.example.com/hook',
];

const DEFAULT_POLICY: AddressPolicy = { allowPrivate: false, allowlist: new Set() };
const SEND_OPTIONS = { timeoutMs: 1000, maxResponseBytes: 1024 };

/** A sender as production builds it, with the system resolver unless one is given. */
function sender(policy: AddressPolicy, resolve?: Resolver) {
  const send = createWebhookSender({ policy, options: SEND_OPTIONS, ...(resolve ? { resolve } : {}) });
  after(() => send.close());
  return send;
}
const HEADERS = { 'content-type': 'application/json', 'webhook-id': 'msg_ssrf' };

function report(backend: Backend | 'none', line: Record<string, unknown>): void {
  mkdirSync(REPORTS_DIR, { recursive: true });
  appendFileSync(
    `${REPORTS_DIR}webhooks-${backend}.jsonl`,
    `${JSON.stringify({ at: new Date().toISOString(), backend, ...line })}\n`,
  );
}

async function saveAsEndpoint(app: FastifyInstance, merchant: TestMerchant, url: string) {
  return app.inject({ method: 'POST', url: '/v1/webhook_endpoints', headers: merchant.authHeaders, payload: { url } });
}

async function saveAsPreferenceWebhook(app: FastifyInstance, merchant: TestMerchant, url: string) {
  return app.inject({
    method: 'POST',
    url: '/v1/checkout_preferences',
    headers: merchant.authHeaders,
    payload: {
      type: 'PAYMENT',
      amount: 10,
      currency: 'USD',
      title: 'SSRF',
      origin: 'API',
      payment_method_types: ['CARD'],
      custom_urls: { status_changes_webhook: url },
    },
  });
}

type Attempt = { status_code: number | null; error: string | null };
type Delivery = { url: string; status: string; attempt_log: Attempt[] };

/** Pays the preference and runs the delivery job once; returns every delivery of every event. */
async function payAndDeliver(
  ctx: { app: FastifyInstance; merchant: TestMerchant; cobro: Parameters<typeof drainWebhooks>[0] },
  preferenceId: string,
): Promise<Delivery[]> {
  const res = await pay(ctx.app, ctx.merchant, preferenceId);
  assert.equal(res.statusCode, 201, res.body);
  await drainWebhooks(ctx.cobro);
  const events = await ctx.app.inject({
    method: 'GET',
    url: `/v1/events?entity_id=${res.json().id}`,
    headers: ctx.merchant.authHeaders,
  });
  const out: Delivery[] = [];
  for (const e of events.json().data as { id: string }[]) {
    const d = await ctx.app.inject({
      method: 'GET',
      url: `/v1/events/${e.id}/deliveries`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(d.statusCode, 200, d.body);
    out.push(...(d.json().data as Delivery[]));
  }
  return out;
}

/** Whether this host's name resolves only to loopback (Debian maps it to 127.0.1.1, containers to 127.0.0.1). */
async function loopbackHostname(): Promise<string | null> {
  const name = hostname();
  try {
    const addresses = await dns.promises.lookup(name, { all: true });
    return addresses.length > 0 && addresses.every((a) => a.address.startsWith('127.') || a.address === '::1')
      ? name
      : null;
  } catch {
    return null;
  }
}

describeBackends('SSRF table (R17)', (build, backend) => {
  test(`refuses ${LOOPBACK_TARGETS.length + OTHER_TARGETS.length} private, loopback, link-local, metadata and non-http targets with 400, as an endpoint and as status_changes_webhook`, async (t) => {
    const { app, merchant } = await build(t);
    const accepted: string[] = [];
    for (const url of [...LOOPBACK_TARGETS, ...OTHER_TARGETS]) {
      const endpoint = await saveAsEndpoint(app, merchant, url);
      if (endpoint.statusCode !== 400 || endpoint.json().code !== 'WRONG_INPUT') {
        accepted.push(`endpoint ${url}: ${endpoint.statusCode} ${endpoint.body}`);
      }
      const preference = await saveAsPreferenceWebhook(app, merchant, url);
      if (preference.statusCode !== 400 || !preference.body.includes('custom_urls.status_changes_webhook')) {
        accepted.push(`status_changes_webhook ${url}: ${preference.statusCode} ${preference.body}`);
      }
    }
    assert.deepEqual(accepted, []);
    const list = await app.inject({ method: 'GET', url: '/v1/webhook_endpoints', headers: merchant.authHeaders });
    assert.deepEqual(list.json().data, [], 'nothing was saved');
    assert.equal(canary.connections(), 0);
    report(backend, {
      test: 'R17 save-time table',
      targets: LOOPBACK_TARGETS.length + OTHER_TARGETS.length,
      accepted: accepted.length,
      canaryConnections: canary.connections(),
      pass: accepted.length === 0,
    });
  });

  test('a host name that resolves to loopback is accepted when saved, then refused when sent, without a connection', async (t) => {
    const named = await loopbackHostname();
    // Allowlisting the name localhost:<canary> lets it past the save-time check, but the address
    // it resolves to (127.0.0.1:<canary>) is not on the allowlist, so the connect-time check refuses it.
    const ctx = await build(t, { env: { WEBHOOK_ALLOWLIST: `localhost:${C}` } });
    const targets = [
      `http://localhost:${C}/hook?via=allowlisted-name`,
      ...(named ? [`http://${named}:${C}/hook`] : []),
    ];
    for (const url of targets) {
      const endpoint = await saveAsEndpoint(ctx.app, ctx.merchant, url);
      assert.equal(endpoint.statusCode, 201, endpoint.body);
      const preference = await saveAsPreferenceWebhook(ctx.app, ctx.merchant, url);
      assert.equal(preference.statusCode, 201, preference.body);
      const deliveries = await payAndDeliver(ctx, preference.json().id);
      const ours = deliveries.filter((d) => d.url === url);
      assert.equal(
        ours.length,
        4,
        `OPENED and CLOSED to the endpoint and to the preference: ${JSON.stringify(deliveries)}`,
      );
      for (const d of ours) {
        assert.equal(d.status, 'PENDING', JSON.stringify(d));
        assert.equal(d.attempt_log.length, 1);
        assert.equal(d.attempt_log[0]?.status_code, null);
        assert.match(String(d.attempt_log[0]?.error), /^refused: /, JSON.stringify(d));
      }
      const del = await ctx.app.inject({
        method: 'DELETE',
        url: `/v1/webhook_endpoints/${endpoint.json().id}`,
        headers: ctx.merchant.authHeaders,
      });
      assert.equal(del.statusCode, 200, del.body);
    }
    assert.equal(canary.connections(), 0);
    report(backend, { test: 'R17 connect-time names', names: targets.length, canaryConnections: 0, pass: true });
  });

  test('a private URL saved while the development switch was on is refused when sent after the switch is turned off', async (t) => {
    const open = await build(t, { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } });
    const url = `http://127.0.0.1:${C}/saved-while-open`;
    const endpoint = await saveAsEndpoint(open.app, open.merchant, url);
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const preference = await saveAsPreferenceWebhook(open.app, open.merchant, url);
    assert.equal(preference.statusCode, 201, preference.body);
    await open.cobro.close();
    const closed = await build(t, { databaseUrl: open.config.databaseUrl });
    const deliveries = await payAndDeliver({ ...closed, merchant: open.merchant }, preference.json().id);
    assert.equal(deliveries.length, 4, JSON.stringify(deliveries));
    for (const d of deliveries) {
      assert.match(String(d.attempt_log[0]?.error), /^refused: /, JSON.stringify(d));
    }
    assert.equal(canary.connections(), 0);
  });

  test('with WEBHOOK_ALLOWLIST=127.0.0.1:<port> only that exact target is reachable, and its 302 to the canary is not followed', async (t) => {
    const receiver = await startChaosReceiver({
      seed: 17,
      modes: [[{ kind: '3xx', location: `http://127.0.0.1:${C}/stolen` }, 1]],
    });
    t.after(() => receiver.close());
    const ctx = await build(t, { env: { WEBHOOK_ALLOWLIST: `127.0.0.1:${receiver.port}` } });
    const allowed = `http://127.0.0.1:${receiver.port}/hook`;
    const refused = [
      `http://127.0.0.1:${C}/hook`,
      `http://127.0.0.2:${receiver.port}/hook`,
      `http://[::1]:${receiver.port}/hook`,
      `http://localhost:${receiver.port}/hook`,
      `http://0.0.0.0:${receiver.port}/hook`,
      `http://10.0.0.1:${receiver.port}/hook`,
    ];
    for (const url of refused) {
      const res = await saveAsEndpoint(ctx.app, ctx.merchant, url);
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
    }
    const endpoint = await saveAsEndpoint(ctx.app, ctx.merchant, allowed);
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const preference = await saveAsPreferenceWebhook(ctx.app, ctx.merchant, `${allowed}?token=abc`);
    assert.equal(preference.statusCode, 201, preference.body);
    const deliveries = await payAndDeliver(ctx, preference.json().id);
    assert.equal(deliveries.length, 4, JSON.stringify(deliveries));
    assert.equal(receiver.requests.length, 4, 'the allowlisted receiver was reached');
    for (const d of deliveries) {
      assert.deepEqual(d.attempt_log[0], { ...d.attempt_log[0], status_code: 302, error: 'redirect not followed' });
      assert.equal(d.status, 'PENDING', 'a redirect is a failure, retried later');
    }
    assert.equal(canary.connections(), 0, 'the redirect was followed');
  });
});

describe('connect-time checks of the sender (R17)', () => {
  test(`refuses ${LOOPBACK_TARGETS.length} loopback targets when sending, even if a stored URL skipped the save-time check`, async () => {
    const failures: string[] = [];
    const send = sender(DEFAULT_POLICY);
    for (const url of LOOPBACK_TARGETS) {
      const result = await send(url, HEADERS, '{}');
      if (result.statusCode !== null || !String(result.error).startsWith('refused: ')) {
        failures.push(`${url}: ${JSON.stringify(result)}`);
      }
    }
    assert.deepEqual(failures, []);
    assert.equal(canary.connections(), 0);
  });

  test('a name is resolved once, every address it resolves to is checked, and the connection goes to the checked address', async (t) => {
    const receiver = await startChaosReceiver({ seed: 18, modes: [[{ kind: 'ok' }, 1]] });
    t.after(() => receiver.close());
    // A second listener on the same port of another loopback address: a resolver that changes its
    // answer after the check ("rebinding") would steer a second resolution there.
    let decoys = 0;
    const decoySockets = new Set<Socket>();
    const decoy = net.createServer((s) => {
      decoys++;
      decoySockets.add(s);
      s.destroy();
    });
    const decoyListening = await new Promise<boolean>((resolve) => {
      decoy.once('error', () => resolve(false));
      decoy.listen(receiver.port, '127.0.0.2', () => resolve(true));
    });
    t.after(
      () =>
        new Promise<void>((resolve) => {
          for (const s of decoySockets) {
            s.destroy();
          }
          if (decoyListening) {
            decoy.close(() => resolve());
          } else {
            resolve();
          }
        }),
    );
    if (decoyListening) {
      assert.equal((decoy.address() as AddressInfo).port, receiver.port);
    }
    const answers: string[][] = [];
    let lookups = 0;
    const resolve: Resolver = async (name) => {
      lookups++;
      const answer = answers[Math.min(lookups - 1, answers.length - 1)] ?? [];
      assert.ok(name.endsWith('.rebind.test'), name);
      return answer.map((address) => ({ address, family: net.isIP(address) }));
    };
    const policy: AddressPolicy = { allowPrivate: false, allowlist: new Set([`127.0.0.1:${receiver.port}`]) };
    const send = sender(policy, resolve);

    // 1. Allowed at the check, something else afterwards: the connection uses the checked answer.
    answers.splice(0, answers.length, ['127.0.0.1'], ['127.0.0.2']);
    lookups = 0;
    const pinned = await send(`http://a.rebind.test:${receiver.port}/hook`, HEADERS, '{}');
    assert.equal(pinned.statusCode, 200, JSON.stringify(pinned));
    assert.equal(lookups, 1, 'resolved once');
    assert.equal(receiver.requests.length, 1);
    assert.equal(decoys, 0);

    // 2. Loopback at connect time (whatever it said before): refused, nothing connects.
    answers.splice(0, answers.length, [`127.0.0.1`]);
    lookups = 0;
    const rebound = await send(`http://b.rebind.test:${C}/hook`, HEADERS, '{}');
    assert.equal(rebound.statusCode, null);
    assert.match(String(rebound.error), /refused: b\.rebind\.test resolves to a forbidden address/);
    assert.equal(lookups, 1);

    // 3. One allowed address among forbidden ones: refused as a whole.
    answers.splice(0, answers.length, ['127.0.0.1', '10.0.0.1']);
    const mixed = await send(`http://c.rebind.test:${receiver.port}/hook`, HEADERS, '{}');
    assert.equal(mixed.statusCode, null);
    assert.match(String(mixed.error), /^refused: /);
    assert.equal(receiver.requests.length, 1, 'nothing more reached the receiver');
    assert.equal(canary.connections(), 0);
    assert.equal(decoys, 0);
  });
});

describeBackends('public receivers, with private networks not allowed (the production configuration)', (build) => {
  test('a receiver named by a host name that resolves to a public address gets its webhooks on exactly that pinned address, with its name as Host and TLS SNI', async (t) => {
    // The network is the outside world: the resolver answers a public address and the connector,
    // asked for that address, records the request and hands over a loopback connection instead.
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const name = 'hooks.shop.example';
    const resolved: string[] = [];
    const targets: ConnectTarget[] = [];
    const ctx = await build(t, {
      webhookNetwork: {
        resolve: async (host) => {
          resolved.push(host);
          if (host !== name) {
            throw new Error(`getaddrinfo ENOTFOUND ${host}`);
          }
          return [
            { address: '93.184.216.34', family: 4 },
            { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
          ];
        },
        connect: (target) => {
          targets.push(target);
          return net.connect({ host: '127.0.0.1', port: receiver.port });
        },
      },
    });
    assert.equal(ctx.config.webhooks.allowPrivateNetworks, false);
    const endpoint = await saveAsEndpoint(ctx.app, ctx.merchant, `https://${name}/cobro`);
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const secret = endpoint.json().secret as string;
    const preference = await saveAsPreferenceWebhook(ctx.app, ctx.merchant, 'https://8.8.8.8:8443/hook?token=abc');
    assert.equal(preference.statusCode, 201, preference.body);
    const v6 = await saveAsEndpoint(ctx.app, ctx.merchant, 'https://[2606:4700:4700::1111]/hook');
    assert.equal(v6.statusCode, 201, v6.body);
    await ctx.app.inject({
      method: 'DELETE',
      url: `/v1/webhook_endpoints/${v6.json().id}`,
      headers: ctx.merchant.authHeaders,
    });

    const deliveries = await payAndDeliver(ctx, preference.json().id);
    assert.equal(deliveries.length, 4, JSON.stringify(deliveries));
    for (const d of deliveries) {
      assert.equal(d.status, 'SUCCEEDED', JSON.stringify(d));
    }
    assert.ok(resolved.every((h) => h === name) && resolved.length >= 1, JSON.stringify(resolved));
    const byName = targets.filter((x) => x.servername === name);
    const byLiteral = targets.filter((x) => x.address === '8.8.8.8');
    assert.ok(byName.length >= 1 && byLiteral.length >= 1, JSON.stringify(targets));
    assert.equal(byName.length + byLiteral.length, targets.length, JSON.stringify(targets));
    for (const target of byName) {
      assert.deepEqual(target, { protocol: 'https:', address: '93.184.216.34', port: 443, servername: name });
    }
    for (const target of byLiteral) {
      assert.deepEqual(target, { protocol: 'https:', address: '8.8.8.8', port: 8443, servername: undefined });
    }
    const toName = receiver.received.filter((r) => r.url === '/cobro');
    const toLiteral = receiver.received.filter((r) => r.url === '/hook?token=abc');
    assert.equal(toName.length, 2);
    assert.equal(toLiteral.length, 2);
    for (const r of toName) {
      assert.equal(r.headers.host, name);
      const verified = new Webhook(secret).verify(r.body, {
        'webhook-id': String(r.headers['webhook-id']),
        'webhook-timestamp': String(r.headers['webhook-timestamp']),
        'webhook-signature': String(r.headers['webhook-signature']),
      });
      assert.ok(verified);
    }
    for (const r of toLiteral) {
      assert.equal(r.headers.host, '8.8.8.8:8443');
    }
    assert.equal(canary.connections(), 0);
  });

  test('a host name that resolves to a private address, or to a public and a private one, is refused before any connection', async (t) => {
    const targets: ConnectTarget[] = [];
    const answers: Record<string, string[]> = {
      'internal.shop.example': ['10.0.0.7'],
      'mixed.shop.example': ['93.184.216.34', '::ffff:169.254.169.254'],
    };
    const ctx = await build(t, {
      webhookNetwork: {
        resolve: async (host) => (answers[host] ?? []).map((address) => ({ address, family: net.isIP(address) })),
        connect: (target) => {
          targets.push(target);
          throw new Error('no connection may be opened');
        },
      },
    });
    for (const host of Object.keys(answers)) {
      const preference = await saveAsPreferenceWebhook(ctx.app, ctx.merchant, `https://${host}/hook`);
      assert.equal(preference.statusCode, 201, preference.body);
      const deliveries = await payAndDeliver(ctx, preference.json().id);
      assert.equal(deliveries.length, 2, JSON.stringify(deliveries));
      for (const d of deliveries) {
        assert.equal(d.status, 'PENDING');
        assert.equal(d.attempt_log[0]?.error, `refused: ${host} resolves to a forbidden address`);
      }
    }
    assert.deepEqual(targets, []);
  });
});
