import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { type DashboardClient, signedInMember } from '../../support/dashboard-client.ts';
import type { TestApp, TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../../support/webhook-receiver.ts';

/** The test merchant's data (its key is a test key). */
const T = '/dashboard/test';

const signedIn = (ctx: TestApp, role: string, merchantId = ctx.merchant.id) =>
  signedInMember(ctx, role, { merchantId });

function apiAs(ctx: TestApp, headers: Record<string, string>, url = '/v1/webhook_endpoints') {
  return ctx.app.inject({ method: 'GET', url, headers });
}

/** The audit entries of developer actions, sorted (the fake clock stands still: entries share one time). */
async function auditActions(ctx: TestApp, merchantId = ctx.merchant.id): Promise<string[]> {
  return (await ctx.cobro.services.dashboard.audit.list(merchantId, null))
    .map((e) => e.action)
    .filter((a) => /^(api_key|webhook_endpoint|webhook_settings|event)\./.test(a))
    .sort();
}

/** The text of the element marked `data-test=testId`, entities decoded. */
function text(body: string, testId: string): string | undefined {
  const raw = new RegExp(`data-test="${testId}"[^>]*>([^<]*)<`).exec(body)?.[1];
  return raw
    ?.replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

/** Creates an endpoint through the form; returns its id and the secret shown once. */
async function createEndpoint(
  browser: DashboardClient,
  fields: Record<string, string>,
  base = T,
): Promise<{ id: string; secret: string }> {
  await browser.get(`${base}/webhook_endpoints/new`);
  const created = await browser.post(`${base}/webhook_endpoints`, fields);
  assert.equal(created.statusCode, 201, created.body);
  const secret = text(created.body, 'shown-secret');
  assert.match(String(secret), /^whsec_/);
  const id = new RegExp(`href="${base}/webhook_endpoints/([A-Za-z0-9]{22})"`).exec(created.body)?.[1];
  assert.ok(id, created.body);
  return { id, secret: String(secret) };
}

describeBackends('dashboard developers', (build) => {
  test('a developer creates a named key (the secret shown once), uses it on the API, and a revocation refuses the very next request', async (t) => {
    const ctx = await build(t);
    const dev = await signedIn(ctx, 'developer');

    const list = await dev.get(`${T}/developers/keys`);
    assert.equal(list.statusCode, 200, list.body);
    assert.match(list.body, /data-test="create-key"/);
    assert.equal([...list.body.matchAll(/data-test="key"/g)].length, 1, 'the merchant starts with one key');

    const created = await dev.post(`${T}/developers/keys`, { name: 'Shop <server>' });
    assert.equal(created.statusCode, 201, created.body);
    const apiKey = String(text(created.body, 'new-api-key'));
    const apiSecret = String(text(created.body, 'new-api-secret'));
    assert.match(apiKey, /^ck_test_[A-Za-z0-9]{24}$/);
    assert.match(apiSecret, /^cs_test_[A-Za-z0-9]{40}$/);
    assert.match(created.body, /shown only on this page, never again/);
    assert.match(created.body, /Shop &lt;server&gt;/);
    assert.doesNotMatch(created.body, /Shop <server>/);
    const headers = { 'x-api-key': apiKey, 'x-api-secret': apiSecret };

    const ok = await apiAs(ctx, headers);
    assert.equal(ok.statusCode, 200, ok.body);

    // The list names it, shows only its prefix, never its secret; "last used" arrives without waiting on the request.
    let page = await dev.get(`${T}/developers/keys`);
    // The note is a write of its own (a commit); the deadline is for a loaded disk.
    const deadline = Date.now() + 10_000;
    while (!/Shop &lt;server&gt;.*?data-test="last-used"><time/s.test(page.body) && Date.now() < deadline) {
      await sleep(20);
      page = await dev.get(`${T}/developers/keys`);
    }
    assert.match(page.body, /Shop &lt;server&gt;.*?data-test="last-used"><time/s, 'last used recorded');
    assert.ok(page.body.includes(`${apiKey.slice(0, 12)}…`), page.body);
    assert.ok(!page.body.includes(apiKey), 'the whole key is not in the list');
    assert.ok(!page.body.includes(apiSecret), 'the secret is never shown again');
    assert.equal([...page.body.matchAll(/data-test="key"/g)].length, 2);

    // Revoke: a confirmation page, then the POST; the very next API request is refused.
    const row = /data-key-ref="([^"]+)">\s*<td>Shop &lt;server&gt;/.exec(page.body);
    const ref = String(row?.[1]);
    const confirm = await dev.get(`${T}/developers/keys/${ref}/revoke`);
    assert.equal(confirm.statusCode, 200, confirm.body);
    assert.match(confirm.body, /Revoke ck_test_/);
    const revoked = await dev.post(`${T}/developers/keys/${ref}/revoke`, {});
    assert.equal(revoked.statusCode, 303, revoked.body);
    assert.equal(revoked.headers.location, `${T}/developers/keys?revoked=1`);
    const refused = await apiAs(ctx, headers);
    assert.equal(refused.statusCode, 401, refused.body);
    const after = await dev.get(`${T}/developers/keys?revoked=1`);
    assert.match(after.body, /data-test="revoked"/);
    // The merchant's own key still works.
    assert.equal((await apiAs(ctx, ctx.merchant.authHeaders)).statusCode, 200);

    assert.deepEqual(await auditActions(ctx), ['api_key.create', 'api_key.revoke']);
  });

  test('a key of another merchant or of the other mode is not found', async (t) => {
    const ctx = await build(t);
    const other = await ctx.createMerchant();
    const owner = await signedIn(ctx, 'owner');
    const otherOwner = await signedIn(ctx, 'owner', other.id);
    const theirs = await otherOwner.get(`${T}/developers/keys`);
    const theirRef = String(/data-key-ref="([^"]+)"/.exec(theirs.body)?.[1]);
    assert.equal((await owner.get(`${T}/developers/keys/${theirRef}/revoke`)).statusCode, 404);
    await owner.get(`${T}/developers/keys`);
    assert.equal((await owner.post(`${T}/developers/keys/${theirRef}/revoke`, {})).statusCode, 404);
    const mine = await owner.get(`${T}/developers/keys`);
    const myRef = String(/data-key-ref="([^"]+)"/.exec(mine.body)?.[1]);
    assert.equal(
      (await owner.get(`/dashboard/developers/keys/${myRef}/revoke`)).statusCode,
      404,
      'a test key in live mode',
    );
    await owner.get('/dashboard/developers/keys');
    assert.equal((await owner.post(`/dashboard/developers/keys/${myRef}/revoke`, {})).statusCode, 404);
    assert.equal((await apiAs(ctx, other.authHeaders)).statusCode, 200, 'their key still works');
    assert.equal((await apiAs(ctx, ctx.merchant.authHeaders)).statusCode, 200, 'and ours');
  });

  test('endpoints: a private URL is refused on the form, then create, edit, disable, enable, rotate and delete through forms', async (t) => {
    const ctx = await build(t);
    const dev = await signedIn(ctx, 'developer');

    await dev.get(`${T}/webhook_endpoints/new`);
    const refused = await dev.post(`${T}/webhook_endpoints`, {
      url: 'http://10.1.2.3/hooks',
      description: 'internal',
    });
    assert.equal(refused.statusCode, 400, refused.body);
    assert.match(
      refused.body,
      /data-test="problems".*must not point to a private, loopback, link-local or reserved address/s,
    );
    assert.match(refused.body, /value="http:\/\/10\.1\.2\.3\/hooks"/, 'the form keeps what was typed');
    assert.equal((await apiAs(ctx, ctx.merchant.authHeaders)).json().data.length, 0, 'nothing created');

    // Stored XSS through the URL and the description comes back escaped everywhere.
    const { id } = await createEndpoint(dev, {
      url: 'https://x.example/<script>',
      description: '<script>alert(1)</script>',
      event_types: 'PAYMENT_ORDER.CLOSED',
    });
    const api = await ctx.app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${id}`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(api.json().description, '<script>alert(1)</script>');
    assert.deepEqual(api.json().event_types, ['PAYMENT_ORDER.CLOSED']);
    for (const url of [`${T}/webhook_endpoints`, `${T}/webhook_endpoints/${id}`, `${T}/webhook_endpoints/${id}/edit`]) {
      const page = await dev.get(url);
      assert.equal(page.statusCode, 200, page.body);
      assert.doesNotMatch(page.body, /<script>/, url);
      assert.match(page.body, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/, url);
    }

    // Edit: a new URL and every event type (none checked).
    const edited = await dev.post(`${T}/webhook_endpoints/${id}/edit`, {
      url: 'https://hooks.example/orders',
      description: 'orders',
    });
    assert.equal(edited.statusCode, 303, edited.body);
    let page = await dev.get(String(edited.headers.location));
    assert.equal(text(page.body, 'endpoint-url'), 'https://hooks.example/orders');
    assert.match(page.body, /All events/);
    const badEdit = await dev.post(`${T}/webhook_endpoints/${id}/edit`, {
      url: 'http://127.0.0.1:9/x',
      description: '',
    });
    assert.equal(badEdit.statusCode, 400, badEdit.body);
    assert.match(badEdit.body, /must not point to a private/);

    // Disable and enable.
    await dev.get(`${T}/webhook_endpoints/${id}`);
    const disabled = await dev.post(`${T}/webhook_endpoints/${id}/disable`, {});
    assert.equal(disabled.statusCode, 303, disabled.body);
    page = await dev.get(String(disabled.headers.location));
    assert.equal(text(page.body, 'endpoint-status'), 'Disabled');
    assert.doesNotMatch(page.body, /data-test="send-test"/, 'no test event to a disabled endpoint');
    assert.equal(
      (
        await ctx.app.inject({ method: 'GET', url: `/v1/webhook_endpoints/${id}`, headers: ctx.merchant.authHeaders })
      ).json().enabled,
      false,
    );
    const enabled = await dev.post(`${T}/webhook_endpoints/${id}/enable`, {});
    page = await dev.get(String(enabled.headers.location));
    assert.equal(text(page.body, 'endpoint-status'), 'Enabled');

    // Rotate: confirmation, then the new secret once, with the overlap.
    const rotateConfirm = await dev.get(`${T}/webhook_endpoints/${id}/rotate`);
    assert.equal(rotateConfirm.statusCode, 200);
    const rotated = await dev.post(`${T}/webhook_endpoints/${id}/rotate`, {});
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.match(String(text(rotated.body, 'shown-secret')), /^whsec_/);
    assert.match(rotated.body, /data-test="overlap"/);

    // Delete: confirmation, then gone (404 afterwards).
    const delConfirm = await dev.get(`${T}/webhook_endpoints/${id}/delete`);
    assert.equal(delConfirm.statusCode, 200);
    assert.match(delConfirm.body, /cannot be undone/);
    const deleted = await dev.post(`${T}/webhook_endpoints/${id}/delete`, {});
    assert.equal(deleted.statusCode, 303, deleted.body);
    assert.equal(deleted.headers.location, `${T}/webhook_endpoints?deleted=1`);
    assert.equal((await dev.get(`${T}/webhook_endpoints/${id}`)).statusCode, 404);

    assert.deepEqual(await auditActions(ctx), [
      'webhook_endpoint.create',
      'webhook_endpoint.delete',
      'webhook_endpoint.rotate',
      'webhook_endpoint.update',
      'webhook_endpoint.update',
      'webhook_endpoint.update',
    ]);
  });

  test('a test event reaches the receiver correctly signed, shows in the endpoint deliveries, and redelivers from the event page', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const ctx = await build(t, { env: { WEBHOOK_ALLOWLIST: `127.0.0.1:${receiver.port}` } });
    const dev = await signedIn(ctx, 'developer');
    const { id, secret } = await createEndpoint(dev, {
      url: `${receiver.url}/hooks?token=abc`,
      description: 'local',
      event_types: 'PAYMENT_ORDER.CLOSED',
    });

    await dev.get(`${T}/webhook_endpoints/${id}`);
    const sent = await dev.post(`${T}/webhook_endpoints/${id}/test`, {});
    assert.equal(sent.statusCode, 303, sent.body);
    await drainWebhooks(ctx.cobro);
    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0];
    assert.ok(got);
    assert.equal(got.url, '/hooks?token=abc');
    const verified = new Webhook(secret).verify(got.body, got.headers as Record<string, string>) as Record<
      string,
      unknown
    >;
    assert.equal(verified.event_type, 'WEBHOOK_ENDPOINT.TEST');
    assert.equal(verified.webhook_endpoint_id, id);
    const eventId = String(verified.id);
    assert.equal(got.headers['webhook-id'], eventId);

    const page = await dev.get(`${T}/webhook_endpoints/${id}?tested=1`);
    assert.match(page.body, /data-test="notice">Test event queued/);
    assert.match(
      page.body,
      new RegExp(`data-test="delivery" data-status="SUCCEEDED">.*?${eventId}.*?data-test="response-code">200<`, 's'),
    );

    // The events list (filtered by type) and the event page: payload and its delivery.
    const events = await dev.get(`${T}/events?type=WEBHOOK_ENDPOINT.TEST`);
    assert.equal(events.statusCode, 200, events.body);
    assert.ok(events.body.includes(`${T}/events/${eventId}`));
    const closed = await dev.get(`${T}/events?type=PAYMENT_ORDER.CLOSED`);
    assert.ok(!closed.body.includes(eventId), 'the filter applies');
    const eventPage = await dev.get(`${T}/events/${eventId}`);
    assert.equal(eventPage.statusCode, 200, eventPage.body);
    assert.match(eventPage.body, /data-test="payload"><code>\{\n {2}&quot;id&quot;/);
    assert.match(eventPage.body, /data-test="response-code">200</);
    const redelivered = await dev.post(`${T}/events/${eventId}/redeliver`, {});
    assert.equal(redelivered.statusCode, 303, redelivered.body);
    assert.equal(redelivered.headers.location, `${T}/events/${eventId}?redelivered=1`);
    await drainWebhooks(ctx.cobro);
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1]?.headers['webhook-id'], eventId, 'same webhook-id on redelivery');
    new Webhook(secret).verify(
      String(receiver.received[1]?.body),
      receiver.received[1]?.headers as Record<string, string>,
    );
    const again = await dev.get(`${T}/events/${eventId}?redelivered=1`);
    assert.equal([...again.body.matchAll(/data-test="response-code">200</g)].length, 2, again.body);

    // The API lists the same event and both attempts.
    const deliveries = await ctx.app.inject({
      method: 'GET',
      url: `/v1/events/${eventId}/deliveries`,
      headers: ctx.merchant.authHeaders,
    });
    assert.equal(deliveries.json().data[0].attempt_log.length, 2, deliveries.body);

    assert.deepEqual(await auditActions(ctx), ['event.redeliver', 'webhook_endpoint.create', 'webhook_endpoint.test']);
  });

  test('the preference webhooks signing secret is revealed and rotated behind confirmation pages', async (t) => {
    const ctx = await build(t);
    const dev = await signedIn(ctx, 'developer');
    const confirm = await dev.get(`${T}/webhook_settings/secret`);
    assert.equal(confirm.statusCode, 200);
    assert.doesNotMatch(confirm.body, /whsec_/, 'not on the confirmation page');
    const shown = await dev.post(`${T}/webhook_settings/secret`, {});
    assert.equal(shown.statusCode, 200, shown.body);
    const settings = async (m: TestMerchant) =>
      (await ctx.app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: m.authHeaders })).json()
        .signing_secret;
    assert.equal(text(shown.body, 'shown-secret'), await settings(ctx.merchant));
    await dev.get(`${T}/webhook_settings/rotate`);
    const rotated = await dev.post(`${T}/webhook_settings/rotate`, {});
    assert.equal(rotated.statusCode, 200, rotated.body);
    const fresh = text(rotated.body, 'shown-secret');
    assert.notEqual(fresh, text(shown.body, 'shown-secret'));
    assert.equal(fresh, await settings(ctx.merchant));
    assert.deepEqual(await auditActions(ctx), ['webhook_settings.reveal', 'webhook_settings.rotate']);
  });

  test('a viewer sees no buttons and every developer POST answers 403, changing nothing', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const ctx = await build(t, { env: { WEBHOOK_ALLOWLIST: `127.0.0.1:${receiver.port}` } });
    const owner = await signedIn(ctx, 'owner');
    const { id } = await createEndpoint(owner, { url: `${receiver.url}/h`, description: 'x' });
    await owner.get(`${T}/webhook_endpoints/${id}`);
    await owner.post(`${T}/webhook_endpoints/${id}/test`, {});
    const eventId = String(
      (
        await ctx.app.inject({
          method: 'GET',
          url: '/v1/events?event_type=WEBHOOK_ENDPOINT.TEST',
          headers: ctx.merchant.authHeaders,
        })
      ).json().data[0].id,
    );
    const keys = await owner.get(`${T}/developers/keys`);
    const ref = String(/data-key-ref="([^"]+)"/.exec(keys.body)?.[1]);

    const viewer = await signedIn(ctx, 'viewer');
    const pages: [string, RegExp][] = [
      [`${T}/developers`, /API keys/],
      [`${T}/developers/keys`, /data-test="keys"/],
      [`${T}/webhook_endpoints`, /data-test="endpoints"/],
      [`${T}/webhook_endpoints/${id}`, /data-test="endpoint-record"/],
      [`${T}/events`, /data-test="events"/],
      [`${T}/events/${eventId}`, /data-test="payload"/],
    ];
    for (const [url, content] of pages) {
      const page = await viewer.get(url);
      assert.equal(page.statusCode, 200, `${url}: ${page.body}`);
      assert.match(page.body, content, url);
      assert.doesNotMatch(
        page.body,
        /data-test="(create-key|revoke-key|new-endpoint|endpoint-actions|send-test|redeliver|reveal-merchant-secret|rotate-merchant-secret)"/,
        url,
      );
    }
    for (const url of [
      `${T}/webhook_endpoints/new`,
      `${T}/webhook_endpoints/${id}/edit`,
      `${T}/webhook_endpoints/${id}/rotate`,
      `${T}/webhook_endpoints/${id}/delete`,
      `${T}/developers/keys/${ref}/revoke`,
      `${T}/webhook_settings/secret`,
      `${T}/webhook_settings/rotate`,
    ]) {
      assert.equal((await viewer.get(url)).statusCode, 403, url);
    }
    await viewer.get(`${T}/developers/keys`);
    const before = await auditActions(ctx);
    for (const [url, fields] of [
      [`${T}/developers/keys`, { name: 'x' }],
      [`${T}/developers/keys/${ref}/revoke`, {}],
      [`${T}/webhook_endpoints`, { url: 'https://hooks.example/x' }],
      [`${T}/webhook_endpoints/${id}/edit`, { url: 'https://hooks.example/x' }],
      [`${T}/webhook_endpoints/${id}/disable`, {}],
      [`${T}/webhook_endpoints/${id}/enable`, {}],
      [`${T}/webhook_endpoints/${id}/test`, {}],
      [`${T}/webhook_endpoints/${id}/rotate`, {}],
      [`${T}/webhook_endpoints/${id}/delete`, {}],
      [`${T}/webhook_settings/secret`, {}],
      [`${T}/webhook_settings/rotate`, {}],
      [`${T}/events/${eventId}/redeliver`, {}],
    ] as const) {
      const res = await viewer.post(url, fields);
      assert.equal(res.statusCode, 403, `${url}: ${res.body}`);
      assert.doesNotMatch(res.body, /whsec_|cs_test_/, url);
    }
    assert.deepEqual(await auditActions(ctx), before, 'nothing changed');
    assert.equal((await apiAs(ctx, ctx.merchant.authHeaders)).json().data.length, 1);
    assert.equal(
      (await ctx.app.inject({ method: 'GET', url: '/v1/webhook_endpoints', headers: ctx.merchant.authHeaders })).json()
        .data[0].enabled,
      true,
    );
  });

  test('another merchant’s endpoint or event, or one of the other mode, answers 404 on every page and action', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const ctx = await build(t, { env: { WEBHOOK_ALLOWLIST: `127.0.0.1:${receiver.port}` } });
    const other = await ctx.createMerchant();
    const stranger = await signedIn(ctx, 'owner', other.id);
    const { id } = await createEndpoint(stranger, { url: `${receiver.url}/h`, description: 'theirs' });
    await stranger.get(`${T}/webhook_endpoints/${id}`);
    await stranger.post(`${T}/webhook_endpoints/${id}/test`, {});
    const eventId = String(
      (await ctx.app.inject({ method: 'GET', url: '/v1/events', headers: other.authHeaders })).json().data[0].id,
    );

    const owner = await signedIn(ctx, 'owner');
    // Their test-mode objects, from our test mode; and (for their owner) from live mode.
    for (const [browser, base] of [
      [owner, T],
      [stranger, '/dashboard'],
    ] as const) {
      for (const url of [
        `${base}/webhook_endpoints/${id}`,
        `${base}/webhook_endpoints/${id}/edit`,
        `${base}/webhook_endpoints/${id}/rotate`,
        `${base}/webhook_endpoints/${id}/delete`,
        `${base}/events/${eventId}`,
      ]) {
        assert.equal((await browser.get(url)).statusCode, 404, url);
      }
      for (const action of ['edit', 'disable', 'test', 'rotate', 'delete']) {
        await browser.get(`${base}/webhook_endpoints`);
        const res = await browser.post(`${base}/webhook_endpoints/${id}/${action}`, { url: 'https://hooks.example/x' });
        assert.equal(res.statusCode, 404, `${action}: ${res.body}`);
      }
      await browser.get(`${base}/events`);
      assert.equal((await browser.post(`${base}/events/${eventId}/redeliver`, {})).statusCode, 404);
      const list = await browser.get(`${base}/events`);
      assert.ok(!list.body.includes(eventId));
    }
    const theirs = await ctx.app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${id}`,
      headers: other.authHeaders,
    });
    assert.equal(theirs.json().url, `${receiver.url}/h`, 'unchanged');
    assert.equal(theirs.json().enabled, true);
  });
});
