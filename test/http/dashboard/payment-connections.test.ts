import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestContext } from 'node:test';
import { beforeEach, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import type { DashboardClient } from '../../support/dashboard-client.ts';
import { connectionAudits, signedInMember } from '../../support/dashboard-client.ts';
import { logSink } from '../../support/log-sink.ts';
import { testText } from '../../support/page-text.ts';
import type { StripeStandIn } from '../../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../../support/stripe-stand-in.ts';
import type { BuildOptions } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

/*
 * Settings → Payment connections (INTERFACE §11, §11.1) as a merchant's people use it, without
 * JavaScript, against the Stripe stand-in (which checks every request against Stripe's
 * published request schemas).
 */

const T = '/dashboard/test';
const PAGE = `${T}/settings/connections`;
const LIVE_PAGE = '/dashboard/settings/connections';

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
});

const requestsTo = (operation: string) => standIn.requests.filter((r) => r.operation === operation).length;

/** Signs in as `role` and connects `keys` through the form of `page`. */
async function connectThroughForm(
  browser: DashboardClient,
  keys: { secretKey: string; publishableKey: string; webhookSecret?: string },
  page = PAGE,
): Promise<LightMyRequestResponse> {
  return browser.submit(page, `${page}/stripe`, {
    secret_key: keys.secretKey,
    publishable_key: keys.publishableKey,
    webhook_secret: keys.webhookSecret ?? '',
  });
}

describeBackends('dashboard payment connections with the Stripe stand-in', (build) => {
  const buildWith = (t: TestContext, options: BuildOptions = {}) =>
    build(t, { ...options, env: { STRIPE_API_URL: standIn.url, ...options.env } });

  test('an owner connects Stripe test keys on the test dashboard: Stripe is asked for the account, the webhook endpoint is made, the page shows account, mode, webhook URL and the key masked, and the audit log names the owner', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const account = standIn.addAccount({ name: 'Tienda Ana' });
    const accountChecks = requestsTo('GET /v1/account');
    const endpointsMade = requestsTo('POST /v1/webhook_endpoints');

    const index = await owner.get(`${T}/settings`);
    assert.match(index.body, /<a href="\/dashboard\/test\/settings\/connections">Payment connections<\/a>/);
    const empty = await owner.get(PAGE);
    assert.equal(empty.statusCode, 200, empty.body);
    assert.match(empty.body, /data-test="not-connected"/);
    assert.match(empty.body, /data-test="stripe-connect-form"/);

    const res = await connectThroughForm(owner, account);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${PAGE}?connected=stripe`);
    assert.equal(requestsTo('GET /v1/account'), accountChecks + 1, 'the key was checked with GET /v1/account');
    assert.equal(requestsTo('POST /v1/webhook_endpoints'), endpointsMade + 1, 'the webhook endpoint was created');

    const [view] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.ok(view, 'the connection is stored');
    assert.equal(view.mode, 'test');
    const endpoint = standIn.webhookEndpoints.get(view.webhookEndpointId ?? '');
    assert.equal(endpoint?.url, view.webhookUrl);

    const page = await owner.get(res.headers.location as string);
    assert.equal(page.statusCode, 200, page.body);
    assert.match(page.body, /data-test="notice"[^>]*>Stripe connected\./);
    assert.equal(testText(page.body, 'account-id'), account.id);
    assert.match(page.body, /Tienda Ana/);
    assert.equal(testText(page.body, 'connection-mode'), 'Test');
    assert.equal(testText(page.body, 'webhook-url'), view.webhookUrl);
    assert.equal(testText(page.body, 'secret-key-masked'), `sk_test_…${account.secretKey.slice(-4)}`);
    assert.equal(testText(page.body, 'publishable-key'), account.publishableKey);
    assert.match(testText(page.body, 'webhook-endpoint') ?? '', new RegExp(`^${endpoint?.id}`));
    assert.equal(testText(page.body, 'last-event'), 'None yet');
    assert.equal(testText(page.body, 'last-error'), 'None');
    assert.doesNotMatch(page.body, /data-test="stripe-connect-form"/, 'no second connection in the same mode');
    assert.ok(!page.body.includes(account.secretKey), 'the page holds the secret key');
    assert.ok(!page.body.includes(endpoint?.secret ?? 'missing'), 'the page holds the webhook secret');

    // The live dashboard's page is about live mode: nothing connected there.
    const live = await owner.get(LIVE_PAGE);
    assert.equal(live.statusCode, 200, live.body);
    assert.match(live.body, /Not connected in live mode\./);
    assert.ok(!live.body.includes(account.id), 'the live page shows the test account');

    const [entry, ...more] = await connectionAudits(ctx);
    assert.equal(more.length, 0);
    assert.equal(entry?.action, 'payment_connection.create');
    assert.equal(entry?.actor, owner.email);
    assert.ok(entry?.userId, 'the signed-in user is the actor');
    assert.deepEqual(entry?.detail, {
      provider: 'stripe',
      mode: 'test',
      account_id: account.id,
      webhook_endpoint_id: view.webhookEndpointId,
    });
  });

  test('an admin connects live keys on the live dashboard with the webhook secret of an endpoint they made: no endpoint is created, the page says the endpoint is theirs and shows the last event received', async (t) => {
    const ctx = await buildWith(t);
    const admin = await signedInMember(ctx, 'admin');
    const account = standIn.addAccount({ live: true });
    const webhookSecret = `whsec_${randomBytes(24).toString('hex')}`;
    const endpoints = standIn.webhookEndpoints.size;
    const res = await connectThroughForm(admin, { ...account, webhookSecret }, LIVE_PAGE);
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(standIn.webhookEndpoints.size, endpoints, 'no endpoint made at Stripe');

    const page = await admin.get(LIVE_PAGE);
    assert.equal(testText(page.body, 'connection-mode'), 'Live');
    assert.equal(testText(page.body, 'secret-key-masked'), `sk_live_…${account.secretKey.slice(-4)}`);
    assert.match(testText(page.body, 'webhook-endpoint') ?? '', /^Yours: make Stripe send the card events/);
    assert.equal(testText(page.body, 'last-event'), 'None yet');

    // Stripe sends an event to the URL the page shows: the page then shows when it arrived.
    const url = testText(page.body, 'webhook-url') ?? '';
    const event = standIn.event({ secret: webhookSecret, livemode: true }, 'charge.refunded', {
      id: 'ch_1',
      object: 'charge',
      payment_intent: 'pi_unknown',
    });
    const delivered = await ctx.app.inject({
      method: 'POST',
      url: new URL(url).pathname,
      headers: event.headers,
      payload: event.payload,
    });
    assert.equal(delivered.statusCode, 200, delivered.body);
    const after = await admin.get(LIVE_PAGE);
    const at = new Date(ctx.clock.now()).toISOString();
    assert.match(after.body, new RegExp(`data-test="last-event"><time datetime="${at}"`));
    assert.ok(!after.body.includes(webhookSecret), 'the page holds the webhook secret');
    assert.equal((await connectionAudits(ctx))[0]?.actor, admin.email);
  });

  test('live keys on the test dashboard, test keys on the live one, and keys of two modes are refused with a clear message, before any call to Stripe, and nothing is stored', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const live = standIn.addAccount({ live: true });
    const test = standIn.addAccount();
    const calls = standIn.requests.length;

    const liveOnTest = await connectThroughForm(owner, live);
    assert.equal(liveOnTest.statusCode, 400, liveOnTest.body);
    assert.match(
      liveOnTest.body,
      /These are live keys, and this is the test dashboard: connect them on the live dashboard\./,
    );
    assert.match(testText(liveOnTest.body, 'error-secret_key') ?? '', /^These are live keys/, 'said beside the field');
    assert.match(liveOnTest.body, /id="secret_key"[^>]*aria-invalid="true"/);
    assert.ok(!liveOnTest.body.includes(live.secretKey), 'the refused page sends the secret key back');
    assert.ok(liveOnTest.body.includes(`value="${live.publishableKey}"`), 'the publishable key stays in its field');

    const testOnLive = await connectThroughForm(owner, test, LIVE_PAGE);
    assert.equal(testOnLive.statusCode, 400, testOnLive.body);
    assert.match(
      testOnLive.body,
      /These are test keys, and this is the live dashboard: connect them on the test dashboard\./,
    );

    const mixed = await connectThroughForm(owner, { secretKey: test.secretKey, publishableKey: live.publishableKey });
    assert.equal(mixed.statusCode, 400, mixed.body);
    assert.match(mixed.body, /the keys are of two modes/);

    const blank = await connectThroughForm(owner, { secretKey: '', publishableKey: '' });
    assert.equal(blank.statusCode, 400, blank.body);
    assert.match(blank.body, /Enter the secret key\./);
    assert.match(blank.body, /Enter the publishable key\./);

    assert.equal(standIn.requests.length, calls, 'no call reached Stripe');
    assert.deepEqual(await ctx.cobro.services.connectors.connections.list(ctx.merchant.id), []);
    assert.deepEqual(await connectionAudits(ctx), []);
  });

  test('keys Stripe refuses are answered with its reason, and nothing is stored or made at Stripe', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const known = standIn.addAccount();
    const refusedKey = `sk_test_${randomBytes(16).toString('hex')}`;
    const endpoints = standIn.webhookEndpoints.size;
    const res = await connectThroughForm(owner, { secretKey: refusedKey, publishableKey: known.publishableKey });
    assert.equal(res.statusCode, 400, res.body);
    assert.match(res.body, /data-test="error-secret_key"[^>]*>secret key: Stripe refused the secret key/);
    assert.ok(!res.body.includes(refusedKey), 'the page sends the refused key back');
    assert.equal(standIn.webhookEndpoints.size, endpoints);
    assert.deepEqual(await ctx.cobro.services.connectors.connections.list(ctx.merchant.id), []);
    assert.deepEqual(await connectionAudits(ctx), []);

    // A malformed webhook secret is the form's problem too, named by its field.
    const badSecret = await connectThroughForm(owner, { ...known, webhookSecret: 'not-a-secret' });
    assert.equal(badSecret.statusCode, 400, badSecret.body);
    assert.match(
      badSecret.body,
      /data-test="error-webhook_secret"[^>]*>webhook secret: not a stripe webhook signing secret/,
    );
    assert.deepEqual(await ctx.cobro.services.connectors.connections.list(ctx.merchant.id), []);
  });

  test('Test connection asks Stripe for the account with the stored key: OK with the account id, or why not (Stripe failing, the key revoked)', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const account = standIn.addAccount();
    assert.equal((await connectThroughForm(owner, account)).statusCode, 303);
    await owner.get(PAGE);

    const checks = requestsTo('GET /v1/account');
    const ok = await owner.post(`${PAGE}/stripe/test`, {});
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(requestsTo('GET /v1/account'), checks + 1, 'a real call to Stripe');
    assert.equal(testText(ok.body, 'check-ok'), `Connection works: Stripe accepted the key for account ${account.id}.`);

    standIn.fail(/^\/v1\/account$/, 500);
    const down = await owner.post(`${PAGE}/stripe/test`, {});
    assert.equal(down.statusCode, 200, down.body);
    assert.match(
      testText(down.body, 'check-failed') ?? '',
      /^The test failed: Stripe could not be reached or answered an error/,
    );

    standIn.accounts.delete(account.secretKey);
    const revoked = await owner.post(`${PAGE}/stripe/test`, {});
    assert.match(
      testText(revoked.body, 'check-failed') ?? '',
      /^The test failed: Stripe refused the secret key \(invalid, revoked or expired\)\.$/,
    );
    assert.ok(!revoked.body.includes(account.secretKey), 'the page holds the secret key');
    // Testing changes nothing.
    assert.equal((await ctx.cobro.services.connectors.connections.list(ctx.merchant.id)).length, 1);
    assert.deepEqual(
      (await connectionAudits(ctx)).map((e) => e.action),
      ['payment_connection.create'],
    );

    // Without a connection there is nothing to test.
    const noneLive = await owner.submit(LIVE_PAGE, `${LIVE_PAGE}/stripe/test`, {});
    assert.equal(noneLive.statusCode, 404, noneLive.body);
  });

  test('Disconnect, after its confirmation page, deletes the webhook endpoint at Stripe and the connection; audited under the user', async (t) => {
    const ctx = await buildWith(t);
    const admin = await signedInMember(ctx, 'admin');
    const account = standIn.addAccount();
    assert.equal((await connectThroughForm(admin, account)).statusCode, 303);
    const [view] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    const endpointId = view?.webhookEndpointId ?? '';
    assert.ok(standIn.webhookEndpoints.has(endpointId), 'the endpoint exists at Stripe');

    const page = await admin.get(PAGE);
    assert.match(page.body, new RegExp(`href="${PAGE}/stripe/remove" data-test="disconnect"`));
    const confirm = await admin.get(`${PAGE}/stripe/remove`);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.match(confirm.body, /Disconnect Stripe from test mode\?/);
    assert.ok(confirm.body.includes(account.id), 'the confirmation names the account');
    const res = await admin.post(`${PAGE}/stripe/remove`, {});
    assert.equal(res.statusCode, 303, res.body);
    assert.equal(res.headers.location, `${PAGE}?removed=stripe`);
    assert.equal(standIn.webhookEndpoints.has(endpointId), false, 'the endpoint is gone at Stripe');
    assert.deepEqual(await ctx.cobro.services.connectors.connections.list(ctx.merchant.id), []);

    const after = await admin.get(res.headers.location as string);
    assert.match(after.body, /Stripe disconnected: its keys are forgotten/);
    assert.match(after.body, /data-test="stripe-connect-form"/);

    const entries = await connectionAudits(ctx);
    assert.deepEqual(entries.map((e) => e.action).sort(), ['payment_connection.create', 'payment_connection.remove']);
    const removal = entries.find((e) => e.action === 'payment_connection.remove');
    assert.equal(removal?.actor, admin.email);
    assert.equal(removal?.detail.webhook_endpoint_deleted, true);

    // Nothing left to disconnect.
    assert.equal((await admin.get(`${PAGE}/stripe/remove`)).statusCode, 404);
  });

  test('Disconnect with a key Stripe no longer accepts removes the connection anyway and says to delete the endpoint by hand', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const account = standIn.addAccount();
    assert.equal((await connectThroughForm(owner, account)).statusCode, 303);
    const [view] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    standIn.accounts.delete(account.secretKey);
    await owner.get(`${PAGE}/stripe/remove`);
    const res = await owner.post(`${PAGE}/stripe/remove`, {});
    assert.equal(res.statusCode, 200, res.body);
    assert.match(
      testText(res.body, 'warning') ?? '',
      new RegExp(`The webhook endpoint ${view?.webhookEndpointId} could not be deleted in your Stripe account`),
    );
    assert.deepEqual(await ctx.cobro.services.connectors.connections.list(ctx.merchant.id), []);
    const removal = (await connectionAudits(ctx)).find((e) => e.action === 'payment_connection.remove');
    assert.equal(removal?.detail.webhook_endpoint_deleted, false);
  });

  test('viewers and developers are refused the page and its actions (403, audited), see no link to it, and change nothing', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const account = standIn.addAccount();
    assert.equal((await connectThroughForm(owner, account)).statusCode, 303);
    const other = standIn.addAccount();
    const calls = standIn.requests.length;

    for (const role of ['viewer', 'developer']) {
      const member = await signedInMember(ctx, role);
      const index = await member.get(`${T}/settings`);
      assert.equal(index.statusCode, 200);
      assert.doesNotMatch(index.body, /settings\/connections/, `${role} sees the link`);
      const page = await member.get(PAGE);
      assert.equal(page.statusCode, 403, `${role} reads the page`);
      assert.ok(!page.body.includes(account.id), `${role} sees the account`);
      assert.equal((await member.get(`${PAGE}/stripe/remove`)).statusCode, 403);
      for (const [path, fields] of [
        [`${PAGE}/stripe`, { secret_key: other.secretKey, publishable_key: other.publishableKey }],
        [`${PAGE}/stripe/test`, {}],
        [`${PAGE}/stripe/remove`, {}],
      ] as const) {
        // A form's token from a page the role may read (the refusal page carries none).
        await member.get(`${T}/settings`);
        const res = await member.post(path, fields);
        assert.equal(res.statusCode, 403, `${role} POST ${path}`);
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
    assert.equal(standIn.requests.length, calls, 'no call reached Stripe');
    const [view] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.equal(view?.accountId, account.id, 'the connection is untouched');
    assert.deepEqual(
      (await connectionAudits(ctx)).map((e) => e.action),
      ['payment_connection.create'],
    );
  });

  test('a post without the CSRF token is refused and changes nothing', async (t) => {
    const ctx = await buildWith(t);
    const owner = await signedInMember(ctx, 'owner');
    const account = standIn.addAccount();
    await owner.get(PAGE);
    const calls = standIn.requests.length;
    const res = await owner.post(
      `${PAGE}/stripe`,
      { secret_key: account.secretKey, publishable_key: account.publishableKey },
      { csrf: null },
    );
    assert.equal(res.statusCode, 403, res.body);
    assert.equal(standIn.requests.length, calls);
    assert.deepEqual(await ctx.cobro.services.connectors.connections.list(ctx.merchant.id), []);

    assert.equal((await connectThroughForm(owner, account)).statusCode, 303);
    const removal = await owner.post(`${PAGE}/stripe/remove`, {}, { csrf: null });
    assert.equal(removal.statusCode, 403);
    assert.equal((await ctx.cobro.services.connectors.connections.list(ctx.merchant.id)).length, 1);
  });

  test('another merchant’s connection never shows: each owner sees and removes only their own', async (t) => {
    const ctx = await buildWith(t);
    const other = await ctx.createMerchant();
    const mine = standIn.addAccount({ name: 'Mine' });
    const theirs = standIn.addAccount({ name: 'Theirs' });
    const owner = await signedInMember(ctx, 'owner');
    const otherOwner = await signedInMember(ctx, 'owner', { merchantId: other.id });
    assert.equal((await connectThroughForm(otherOwner, theirs)).statusCode, 303);

    const page = await owner.get(PAGE);
    assert.equal(page.statusCode, 200);
    assert.ok(!page.body.includes(theirs.id), 'another merchant’s account shows');
    assert.match(page.body, /data-test="not-connected"/);
    assert.equal((await owner.get(`${PAGE}/stripe/remove`)).statusCode, 404);
    await owner.get(PAGE);
    assert.equal((await owner.post(`${PAGE}/stripe/test`, {})).statusCode, 404);

    assert.equal((await connectThroughForm(owner, mine)).statusCode, 303);
    const both = await owner.get(PAGE);
    assert.equal(testText(both.body, 'account-id'), mine.id);
    assert.ok(!both.body.includes(theirs.id), 'another merchant’s account shows');
    await owner.get(`${PAGE}/stripe/remove`);
    assert.equal((await owner.post(`${PAGE}/stripe/remove`, {})).statusCode, 303);
    const [left] = await ctx.cobro.services.connectors.connections.list(other.id);
    assert.equal(left?.accountId, theirs.id, 'the other merchant’s connection is untouched');
    assert.deepEqual(await connectionAudits(ctx, ctx.merchant.id).then((e) => e.map((x) => x.action).sort()), [
      'payment_connection.create',
      'payment_connection.remove',
    ]);
  });

  test('neither the pages nor the server log ever hold the secret key or the webhook secret', async (t) => {
    const sink = logSink();
    const ctx = await buildWith(t, { productionLogger: true, logStream: sink.stream, env: { LOG_LEVEL: 'trace' } });
    const owner = await signedInMember(ctx, 'owner');
    const pages: string[] = [];
    const keep = (res: LightMyRequestResponse) => {
      pages.push(res.body);
      return res;
    };
    const made = standIn.addAccount();
    const own = standIn.addAccount();
    const ownSecret = `whsec_${randomBytes(24).toString('hex')}`;
    const refused = `sk_test_${randomBytes(16).toString('hex')}`;

    keep(await connectThroughForm(owner, { secretKey: refused, publishableKey: made.publishableKey }));
    keep(await connectThroughForm(owner, { ...made, webhookSecret: 'whsec_' }));
    keep(await connectThroughForm(owner, made));
    keep(await owner.get(PAGE));
    keep(await owner.post(`${PAGE}/stripe/test`, {}));
    keep(await owner.get(`${PAGE}/stripe/remove`));
    keep(await owner.post(`${PAGE}/stripe/remove`, {}));
    keep(await connectThroughForm(owner, { ...own, webhookSecret: ownSecret }));
    keep(await owner.get(PAGE));
    keep(await connectThroughForm(owner, standIn.addAccount({ live: true }), LIVE_PAGE));
    keep(await owner.get(LIVE_PAGE));
    const madeSecrets = [...standIn.webhookEndpoints.values()].map((e) => e.secret);
    assert.ok(madeSecrets.length >= 1, 'an endpoint secret was made');

    ctx.cobro.logger.flush?.();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(sink.lines.length > 10, 'the run wrote log lines');
    const log = sink.lines.join('\n');
    const html = pages.join('\n');
    for (const secret of [made.secretKey, own.secretKey, refused, ownSecret, ...madeSecrets]) {
      assert.ok(!html.includes(secret), `a page holds ${secret.slice(0, 10)}…`);
      assert.ok(!log.includes(secret), `a log line holds ${secret.slice(0, 10)}…`);
    }
    assert.ok(!/sk_live_|sk_test_|rk_live_|rk_test_|whsec_/.test(log), 'no key-shaped text in the logs');
  });
});
