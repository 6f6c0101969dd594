import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { test } from 'node:test';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { PLAN_LINK_RATE_LIMIT } from '../../src/web/links/links.plugin.ts';
import { createPaymentLink } from '../support/builders.ts';
import { acceptInvitation, DashboardClient, TEST_PASSWORD, uniqueEmail } from '../support/dashboard-client.ts';
import type { TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/**
 * TRUST_PROXY (docs/operations.md, "Behind a reverse proxy"): every per-address limit counts by
 * the client's address. Off, the socket's address is the client's, whatever X-Forwarded-For
 * says, so clients behind one proxy share its address; set to the proxy's address, each client
 * behind it counts alone, and a client that reaches Cobro directly still cannot pick its address.
 */

/** Where a request comes from: the socket's address, and the X-Forwarded-For it carries. */
type Client = { remoteAddress: string; forwardedFor: string };

/**
 * A proxy in 10.0.0.0/8, two clients behind it, and a client that connects directly naming
 * another's address. Fresh addresses for each test: on PostgreSQL the tests of a file share one
 * database, where sign-in failures are counted by address.
 */
function network() {
  const octet = () => randomInt(1, 255);
  const proxy = `10.${octet()}.${octet()}.${octet()}`;
  const alice: Client = { remoteAddress: proxy, forwardedFor: `100.64.${octet()}.${octet()}` };
  const bob: Client = { remoteAddress: proxy, forwardedFor: `100.65.${octet()}.${octet()}` };
  const direct = (forwardedFor: string): Client => ({ remoteAddress: `100.66.${octet()}.${octet()}`, forwardedFor });
  return { proxy, alice, bob, direct };
}

/** The proxy by range and by name, in the list form operators write. */
const TRUSTING_THE_PROXY = { TRUST_PROXY: 'loopback, 10.0.0.0/8' };

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

/** `app` as seen from `client`: every request arrives from its socket address with its header. */
function from(app: FastifyInstance, client: Client): FastifyInstance {
  const inject = (options: InjectOptions) =>
    app.inject({
      ...options,
      remoteAddress: client.remoteAddress,
      headers: { 'user-agent': BROWSER, ...options.headers, 'x-forwarded-for': client.forwardedFor },
    });
  return Object.assign(Object.create(app) as FastifyInstance, { inject });
}

type Limit = {
  env: Record<string, string>;
  /** Makes requests as `client` until the limit answers it 429. */
  exhaust(ctx: TestApp, client: Client): Promise<void>;
  /** One more request as `client`: its answer. */
  probe(ctx: TestApp, client: Client): Promise<LightMyRequestResponse>;
};

const AUTH_FAILURES = 3;

function badCredentials(ctx: TestApp, client: Client): Promise<LightMyRequestResponse> {
  return from(ctx.app, client).inject({
    url: '/v1/checkout_preferences?limit=1',
    headers: { 'x-api-key': ctx.merchant.apiKey, 'x-api-secret': `${ctx.merchant.apiSecret}x` },
  });
}

async function openPlanLink(ctx: TestApp, client: Client): Promise<LightMyRequestResponse> {
  const plan = await createPaymentLink(ctx.app, ctx.merchant);
  return from(ctx.app, client).inject({ url: `/l/${plan.id}` });
}

async function wrongSignIn(ctx: TestApp, client: Client): Promise<LightMyRequestResponse> {
  const browser = new DashboardClient(from(ctx.app, client));
  await browser.get('/dashboard/login');
  return browser.post('/dashboard/login', { email: uniqueEmail('nobody'), password: 'not the password at all' });
}

/** Repeats `attempt` until it answers 429 (at most `max` times), every earlier answer being `expected`. */
async function until429(attempt: () => Promise<LightMyRequestResponse>, expected: number, max: number) {
  for (let i = 0; i < max; i++) {
    const res = await attempt();
    if (res.statusCode === 429) {
      return;
    }
    assert.equal(res.statusCode, expected, `attempt ${i + 1}: ${res.body.slice(0, 300)}`);
  }
  assert.fail(`no 429 after ${max} attempts`);
}

const LIMITS: Record<string, Limit> = {
  'API authentication failures': {
    env: { AUTH_FAILURES_PER_MINUTE: String(AUTH_FAILURES) },
    exhaust: (ctx, client) => until429(() => badCredentials(ctx, client), 401, AUTH_FAILURES + 1),
    probe: badCredentials,
  },
  'plan link openings': {
    env: {},
    exhaust: (ctx, client) => until429(() => openPlanLink(ctx, client), 303, PLAN_LINK_RATE_LIMIT.max + 1),
    probe: openPlanLink,
  },
  // Distinct unknown e-mails, so that only the per-address count can stop them.
  'dashboard sign-in failures': {
    env: {},
    exhaust: (ctx, client) => until429(() => wrongSignIn(ctx, client), 401, 100),
    probe: wrongSignIn,
  },
};

describeBackends('TRUST_PROXY', (build) => {
  for (const [name, limit] of Object.entries(LIMITS)) {
    test(`without TRUST_PROXY, X-Forwarded-For is ignored: two clients behind one proxy share its ${name} limit`, async (t) => {
      const ctx = await build(t, { env: limit.env });
      const { alice, bob: other } = network();
      await limit.exhaust(ctx, alice);
      const bob = await limit.probe(ctx, other);
      assert.equal(bob.statusCode, 429, bob.body.slice(0, 300));
    });

    test(`with TRUST_PROXY naming the proxy, each client behind it has its own ${name} limit`, async (t) => {
      const ctx = await build(t, { env: { ...limit.env, ...TRUSTING_THE_PROXY } });
      const clients = network();
      await limit.exhaust(ctx, clients.alice);
      const alice = await limit.probe(ctx, clients.alice);
      assert.equal(alice.statusCode, 429, alice.body.slice(0, 300));
      const bob = await limit.probe(ctx, clients.bob);
      assert.notEqual(bob.statusCode, 429, bob.body.slice(0, 300));
    });

    test(`with TRUST_PROXY, a client reaching the server directly cannot leave its ${name} limit by sending X-Forwarded-For`, async (t) => {
      const ctx = await build(t, { env: { ...limit.env, ...TRUSTING_THE_PROXY } });
      const { alice, bob: other, direct } = network();
      const mallory = direct(alice.forwardedFor);
      await limit.exhaust(ctx, mallory);
      const spoofed = await limit.probe(ctx, { ...mallory, forwardedFor: other.forwardedFor });
      assert.equal(spoofed.statusCode, 429, spoofed.body.slice(0, 300));
      const bob = await limit.probe(ctx, other);
      assert.notEqual(bob.statusCode, 429, 'the client it named is not blocked');
    });
  }

  test('with TRUST_PROXY, the session list shows the address of the client who signed in, not the proxy', async (t) => {
    const ctx = await build(t, { env: TRUSTING_THE_PROXY });
    const { proxy, alice, bob } = network();
    const email = uniqueEmail('owner');
    await acceptInvitation({ ...ctx, app: from(ctx.app, bob) }, email, 'owner');
    const browser = new DashboardClient(from(ctx.app, alice));
    await browser.get('/dashboard/login');
    assert.equal((await browser.post('/dashboard/login', { email, password: TEST_PASSWORD })).statusCode, 303);
    const security = await browser.get('/dashboard/settings/security');
    assert.equal(security.statusCode, 200, security.body.slice(0, 300));
    assert.ok(security.body.includes(`<td>${alice.forwardedFor}</td>`), 'the session list shows the client address');
    assert.ok(!security.body.includes(proxy), 'and not the proxy');
  });
});
