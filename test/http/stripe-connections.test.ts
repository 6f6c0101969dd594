import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { beforeEach, test } from 'node:test';
import { sql } from 'kysely';
import { CLI_ACTOR } from '../../src/domain/dashboard/audit.ts';
import { AppError } from '../../src/domain/shared/errors.ts';
import { expectAppError } from '../support/app-errors.ts';
import { logSink } from '../support/log-sink.ts';
import { getOrder } from '../support/payments.ts';
import { openConnectedCardOrder } from '../support/stripe-orders.ts';
import type { StripeStandIn } from '../support/stripe-stand-in.ts';
import { useStripeStandIn } from '../support/stripe-stand-in.ts';
import type { BuildOptions, TestApp } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

/*
 * Connecting a merchant's own Stripe account (INTERFACE §11, §11.1) and the events it sends,
 * against the Stripe stand-in: the stand-in checks every request against Stripe's published
 * request schemas, so these tests also fail on a parameter Stripe would refuse.
 */

const standIns = useStripeStandIn();
let standIn: StripeStandIn;
beforeEach(() => {
  standIn = standIns();
});

describeBackends('Stripe connections with the Stripe stand-in', (build) => {
  const buildWith = (t: TestContext, options: BuildOptions = {}) =>
    build(t, { ...options, env: { STRIPE_API_URL: standIn.url, ...options.env } });

  const rawRows = async (ctx: TestApp) =>
    (
      await sql`select * from processor_connections where merchant_id = ${ctx.merchant.id}`.execute(
        ctx.cobro.database.db,
      )
    ).rows;

  const audits = async (ctx: TestApp) =>
    (await ctx.cobro.services.dashboard.audit.list(ctx.merchant.id, null)).filter((a) =>
      a.action.startsWith('payment_connection.'),
    );

  test('connecting with test keys checks the account, creates the webhook endpoint, and keeps the secrets sealed', async (t) => {
    const ctx = await buildWith(t);
    const { connecting, connections, access } = ctx.cobro.services.connectors;
    const account = standIn.addAccount({ name: 'Tienda Ana' });
    const view = await connecting.connect(
      ctx.merchant.id,
      'stripe',
      { secretKey: account.secretKey, publishableKey: account.publishableKey },
      CLI_ACTOR,
    );
    assert.equal(view.mode, 'test');
    assert.equal(view.accountId, account.id);
    assert.equal(view.accountName, 'Tienda Ana');
    assert.match(view.webhookUrl, /^http:\/\/127\.0\.0\.1:3000\/connectors\/stripe\/webhooks\/[A-Za-z0-9]{24}$/);
    const endpoint = standIn.webhookEndpoints.get(view.webhookEndpointId ?? '');
    assert.equal(endpoint?.url, view.webhookUrl);
    assert.ok((endpoint?.enabled_events as string[] | undefined)?.includes('payment_intent.succeeded'));
    assert.ok(
      standIn.requests.some((r) => r.operation === 'GET /v1/account'),
      'the key was checked with GET /v1/account',
    );

    // The row as stored: neither secret in clear, nothing key-shaped.
    const rows = await rawRows(ctx);
    assert.equal(rows.length, 1);
    const stored = JSON.stringify(rows[0], (_k, v) => (typeof v === 'bigint' ? String(v) : v));
    for (const secret of [account.secretKey, endpoint?.secret ?? 'missing', 'sk_test_', 'whsec_']) {
      assert.ok(!stored.includes(secret), `the stored row holds ${secret.slice(0, 8)}…`);
    }
    assert.match(String((rows[0] as Record<string, unknown>).secret_key_sealed), /^v1\./);

    // Listed without secrets; availability can ask.
    const listed = JSON.stringify(await connections.list(ctx.merchant.id));
    assert.ok(!/sk_test_|whsec_/.test(listed));
    assert.equal(await access.hasCardConnection(ctx.merchant.id, 'test'), true);
    assert.equal(await access.hasCardConnection(ctx.merchant.id, 'live'), false);
    assert.equal(await access.isConnected('CARD', ctx.merchant.id, 'test'), true);

    const [entry] = await audits(ctx);
    assert.equal(entry?.action, 'payment_connection.create');
    assert.equal(entry?.actor, 'cli');
    assert.deepEqual(entry?.detail, {
      provider: 'stripe',
      mode: 'test',
      account_id: account.id,
      webhook_endpoint_id: view.webhookEndpointId,
    });
  });

  test('removing a connection deletes the webhook endpoint it created at Stripe, then the connection; both audited', async (t) => {
    const ctx = await buildWith(t);
    const { connecting, removal, access } = ctx.cobro.services.connectors;
    const account = standIn.addAccount();
    const view = await connecting.connect(
      ctx.merchant.id,
      'stripe',
      { secretKey: account.secretKey, publishableKey: account.publishableKey },
      CLI_ACTOR,
    );
    const result = await removal.remove(ctx.merchant.id, 'stripe', 'test', CLI_ACTOR);
    assert.equal(result.endpointDeleted, true);
    assert.equal(standIn.webhookEndpoints.has(view.webhookEndpointId ?? ''), false);
    assert.equal((await rawRows(ctx)).length, 0);
    assert.equal(await access.hasCardConnection(ctx.merchant.id, 'test'), false);
    assert.deepEqual(
      (await audits(ctx)).map((a) => a.action).sort(),
      // Both at the same instant of the test clock: compared as a set.
      ['payment_connection.create', 'payment_connection.remove'],
    );
    await expectAppError(
      removal.remove(ctx.merchant.id, 'stripe', 'test', CLI_ACTOR),
      'NOT_FOUND',
      /no stripe connection in test mode/,
    );
    await expectAppError(removal.remove(ctx.merchant.id, 'pix', 'live', CLI_ACTOR), 'NOT_FOUND', /no pix connection/);
  });

  test('keys of two modes are refused, and a key Stripe refuses stores nothing and creates no endpoint', async (t) => {
    const ctx = await buildWith(t);
    const { connecting } = ctx.cobro.services.connectors;
    const test = standIn.addAccount();
    const live = standIn.addAccount({ live: true });
    const requestsBefore = standIn.requests.length;
    await expectAppError(
      connecting.connect(
        ctx.merchant.id,
        'stripe',
        { secretKey: test.secretKey, publishableKey: live.publishableKey },
        CLI_ACTOR,
      ),
      'WRONG_INPUT',
      /two modes: the secret key is a test key, the publishable key a live key/,
    );
    assert.equal(standIn.requests.length, requestsBefore, 'refused before any call to Stripe');
    const endpointsBefore = standIn.webhookEndpoints.size;
    const refusedKey = `sk_test_${'0'.repeat(32)}`;
    await assert.rejects(
      connecting.connect(
        ctx.merchant.id,
        'stripe',
        { secretKey: refusedKey, publishableKey: test.publishableKey },
        CLI_ACTOR,
      ),
      (error: Error) => {
        assert.ok(error instanceof AppError);
        assert.equal(error.code, 'WRONG_INPUT');
        assert.match(error.message, /Stripe refused the secret key/);
        assert.ok(!error.message.includes(refusedKey), 'the refused key is not repeated');
        return true;
      },
    );
    assert.equal(standIn.webhookEndpoints.size, endpointsBefore);
    assert.equal((await rawRows(ctx)).length, 0);
    assert.deepEqual(await audits(ctx), []);
    await expectAppError(
      connecting.connect(
        ctx.merchant.id,
        'stripe',
        { secretKey: 'sk_test_', publishableKey: test.publishableKey },
        CLI_ACTOR,
      ),
      'WRONG_INPUT',
      /secret key: must be a Stripe secret or restricted key/,
    );
  });

  test('a live connection sits beside a test one; a second one in the same mode is refused until the first is removed', async (t) => {
    const ctx = await buildWith(t);
    const { connecting, connections } = ctx.cobro.services.connectors;
    const live = standIn.addAccount({ live: true });
    const test = standIn.addAccount();
    const liveView = await connecting.connect(
      ctx.merchant.id,
      'stripe',
      { secretKey: live.secretKey, publishableKey: live.publishableKey },
      CLI_ACTOR,
    );
    const testView = await connecting.connect(
      ctx.merchant.id,
      'stripe',
      { secretKey: test.secretKey, publishableKey: test.publishableKey },
      CLI_ACTOR,
    );
    assert.equal(liveView.mode, 'live');
    assert.notEqual(liveView.webhookUrl, testView.webhookUrl);
    const other = standIn.addAccount({ live: true });
    const endpoints = standIn.webhookEndpoints.size;
    await expectAppError(
      connecting.connect(
        ctx.merchant.id,
        'stripe',
        { secretKey: other.secretKey, publishableKey: other.publishableKey },
        CLI_ACTOR,
      ),
      'CONFLICT',
      /already has a stripe connection in live mode/,
    );
    assert.equal(standIn.webhookEndpoints.size, endpoints);
    assert.deepEqual(
      (await connections.list(ctx.merchant.id)).map((c) => c.mode),
      ['live', 'test'],
    );
  });

  test('with the webhook secret given, Cobro creates no endpoint and verifies events with that secret', async (t) => {
    const ctx = await buildWith(t);
    const { connecting, removal } = ctx.cobro.services.connectors;
    const account = standIn.addAccount();
    const endpoints = standIn.webhookEndpoints.size;
    const secret = 'whsec_merchantMadeThisEndpoint0001';
    const view = await connecting.connect(
      ctx.merchant.id,
      'stripe',
      { secretKey: account.secretKey, publishableKey: account.publishableKey, webhookSecret: secret },
      CLI_ACTOR,
    );
    assert.equal(view.webhookEndpointId, null);
    assert.equal(standIn.webhookEndpoints.size, endpoints);
    const event = standIn.event({ secret }, 'payment_intent.canceled', {
      id: 'pi_unknown',
      object: 'payment_intent',
      status: 'canceled',
      amount: 100,
      amount_received: 0,
      currency: 'usd',
      metadata: {},
    });
    const res = await ctx.app.inject({
      method: 'POST',
      url: new URL(view.webhookUrl).pathname,
      headers: event.headers,
      payload: event.payload,
    });
    assert.equal(res.statusCode, 200, res.body);
    // Removing it calls nothing at Stripe: there is no endpoint of Cobro's to delete.
    const requests = standIn.requests.length;
    assert.equal((await removal.remove(ctx.merchant.id, 'stripe', 'test', CLI_ACTOR)).endpointDeleted, true);
    assert.equal(standIn.requests.length, requests);
    await expectAppError(
      connecting.connect(
        ctx.merchant.id,
        'stripe',
        { secretKey: account.secretKey, publishableKey: account.publishableKey, webhookSecret: 'secret' },
        CLI_ACTOR,
      ),
      'WRONG_INPUT',
      /webhook secret: not a stripe webhook signing secret/,
    );
  });

  const openStripeOrder = (ctx: TestApp, amount?: number) => openConnectedCardOrder(ctx, standIn, amount);

  const closedEvents = async (ctx: TestApp, orderId: string) =>
    Number(
      (
        await sql<{
          n: bigint;
        }>`select count(*) as n from events where entity_id = ${orderId} and event_type = 'PAYMENT_ORDER.CLOSED'`.execute(
          ctx.cobro.database.db,
        )
      ).rows[0]?.n ?? 0,
    );

  test('a verified payment_intent.succeeded closes the order once: the same event twice has one effect', async (t) => {
    const ctx = await buildWith(t);
    const s = await openStripeOrder(ctx);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'OPENED');
    assert.equal(
      (standIn.paymentIntents.get(s.intent.id)?.metadata as Record<string, string> | undefined)?.cobro_payment_order_id,
      s.order.id,
    );
    const event = standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.succeed(s.intent.id));
    const first = await s.post(event);
    assert.equal(first.statusCode, 200, first.body);
    assert.deepEqual(first.json(), { received: true, duplicate: false });
    const closed = await getOrder(ctx.app, ctx.merchant, s.order.id);
    assert.equal(closed.status, 'CLOSED');
    const second = await s.post(event);
    assert.equal(second.statusCode, 200);
    assert.deepEqual(second.json(), { received: true, duplicate: true });
    const after = await getOrder(ctx.app, ctx.merchant, s.order.id);
    assert.equal(after.sequence, closed.sequence);
    assert.equal(await closedEvents(ctx, s.order.id), 1);
    const pref = await ctx.app.inject({
      method: 'GET',
      url: `/v1/checkout_preferences/${s.pref.id}`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(pref.json().status, 'PAID');
    const [conn] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.ok(conn?.lastEventAt);
    assert.equal(conn?.lastError, null);
  });

  test('a missing or wrong signature, or a stale timestamp, is a 400 and changes nothing', async (t) => {
    const ctx = await buildWith(t);
    const s = await openStripeOrder(ctx);
    const object = standIn.succeed(s.intent.id);
    const wrong = standIn.event(s.endpoint, 'payment_intent.succeeded', object, {
      secret: 'whsec_notTheEndpointsSecret00',
    });
    const stale = standIn.event(s.endpoint, 'payment_intent.succeeded', object, {
      timestamp: Math.floor(Date.now() / 1000) - 301,
    });
    const good = standIn.event(s.endpoint, 'payment_intent.succeeded', object);
    const unsigned = { payload: good.payload, headers: { 'content-type': 'application/json' } };
    const tampered = { payload: good.payload.replace('"livemode":false', '"livemode":false '), headers: good.headers };
    for (const [name, event] of Object.entries({ wrong, stale, unsigned, tampered })) {
      const res = await s.post(event);
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.equal(res.json().code, 'WRONG_INPUT');
      assert.match(res.json().messages[0], /signature/);
    }
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'OPENED');
    const events = await sql`select * from connector_events where merchant_id = ${ctx.merchant.id}`.execute(
      ctx.cobro.database.db,
    );
    assert.equal(events.rows.length, 0);
    // The same event, signed right, still closes it: nothing was spent by the refusals.
    assert.equal((await s.post(good)).statusCode, 200);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'CLOSED');
  });

  test('a body past 256 KiB is a 413; a URL no connection has is a 404', async (t) => {
    const ctx = await buildWith(t);
    const s = await openStripeOrder(ctx);
    const big = standIn.event(s.endpoint, 'payment_intent.succeeded', {
      ...standIn.succeed(s.intent.id),
      padding: 'x'.repeat(300 * 1024),
    });
    const res = await s.post(big);
    assert.equal(res.statusCode, 413, res.body);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'OPENED');
    const event = standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.succeed(s.intent.id));
    const nobody = await ctx.app.inject({
      method: 'POST',
      url: '/connectors/stripe/webhooks/NoConnectionHasThisId0',
      headers: event.headers,
      payload: event.payload,
    });
    assert.equal(nobody.statusCode, 404);
  });

  test('an event about an intent Cobro does not know is answered 2xx and ignored', async (t) => {
    const ctx = await buildWith(t);
    const s = await openStripeOrder(ctx);
    // An intent made in the merchant's Stripe account by something else, naming no order…
    const foreign = { ...standIn.succeed(s.intent.id), id: 'pi_madeElsewhere', metadata: {} };
    // …and one that names the order but is not the intent Cobro created for it.
    const impostor = { ...standIn.succeed(s.intent.id), id: 'pi_notCobros' };
    for (const object of [foreign, impostor]) {
      const res = await s.post(standIn.event(s.endpoint, 'payment_intent.succeeded', object));
      assert.equal(res.statusCode, 200, res.body);
    }
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'OPENED');
    const outcomes = await sql<{
      outcome: string;
    }>`select outcome from connector_events where merchant_id = ${ctx.merchant.id}`.execute(ctx.cobro.database.db);
    assert.deepEqual(
      outcomes.rows.map((r) => r.outcome),
      ['unknown_intent', 'unknown_intent'],
    );
  });

  test('a success for another amount leaves the order open and says why on the connection', async (t) => {
    const ctx = await buildWith(t);
    const s = await openStripeOrder(ctx);
    const res = await s.post(standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.succeed(s.intent.id, 100)));
    assert.equal(res.statusCode, 200);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'OPENED');
    const [conn] = await ctx.cobro.services.connectors.connections.list(ctx.merchant.id);
    assert.match(
      conn?.lastError ?? '',
      /received 100 USD \(minor units\), but order .* charges 2500 USD; the order was not closed/,
    );
  });

  test('a test event at a live connection changes nothing', async (t) => {
    const ctx = await buildWith(t);
    const s = await openStripeOrder(ctx);
    const res = await s.post(
      standIn.event({ ...s.endpoint, livemode: true }, 'payment_intent.succeeded', standIn.succeed(s.intent.id)),
    );
    assert.equal(res.statusCode, 200);
    assert.equal((await getOrder(ctx.app, ctx.merchant, s.order.id)).status, 'OPENED');
  });

  test('no Stripe key, webhook secret or client secret reaches the logs', async (t) => {
    const sink = logSink();
    const ctx = await buildWith(t, { productionLogger: true, logStream: sink.stream, env: { LOG_LEVEL: 'trace' } });
    const s = await openStripeOrder(ctx);
    await s.post(standIn.event(s.endpoint, 'payment_intent.succeeded', standIn.succeed(s.intent.id)));
    await s.post(standIn.event(s.endpoint, 'payment_intent.succeeded', {}, { secret: 'whsec_wrong00000000' }));
    // What an error carrying a key would write, through the same logger.
    ctx.cobro.logger.error(
      {
        err: new Error(`call failed for ${s.account.secretKey}`),
        connection: { secretKey: s.account.secretKey, url: `x?${s.endpoint.secret}` },
      },
      'stripe call failed',
    );
    ctx.cobro.logger.flush?.();
    await new Promise((resolve) => setImmediate(resolve));
    assert.ok(sink.lines.length > 3, 'the run wrote log lines');
    const all = sink.lines.join('\n');
    for (const secret of [s.account.secretKey, s.endpoint.secret, s.intent.clientSecret ?? 'missing']) {
      assert.ok(!all.includes(secret), `a log line holds ${secret.slice(0, 10)}…`);
    }
    assert.ok(!/sk_live_|sk_test_|rk_live_|rk_test_|whsec_/.test(all), 'no key-shaped text in the logs');
  });
});
