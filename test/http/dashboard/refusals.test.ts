import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { test } from 'node:test';
import type { AuditEntry } from '../../../src/domain/dashboard/dashboard-user.ts';
import { createPreference } from '../../support/builders.ts';
import { DashboardClient, signedInMember } from '../../support/dashboard-client.ts';
import { pay } from '../../support/payments.ts';
import type { TestApp, TestMerchant } from '../../support/test-app.ts';
import { describeBackends } from '../../support/test-app.ts';

const T = '/dashboard/test';
const UNKNOWN = 'AAAAAAAAAAAAAAAAAAAAAA';

/** A paid card order of `merchant` (test mode). */
async function paidOrder(ctx: TestApp, merchant: TestMerchant = ctx.merchant) {
  const pref = await createPreference(ctx.app, merchant, { payment_method_types: ['CARD'] });
  const res = await pay(ctx.app, merchant, pref.id, {});
  assert.equal(res.statusCode, 201, res.body);
  return { pref, order: res.json() as { id: string } };
}

/** The refused attempts in a merchant's audit log, oldest first. */
async function refusals(ctx: TestApp, merchantId = ctx.merchant.id): Promise<AuditEntry[]> {
  const entries = await ctx.cobro.services.dashboard.audit.list(merchantId, null);
  return entries.filter((e) => e.action === 'access.denied').reverse();
}

/** `cobro_dashboard_refusals_total` for one reason, as GET /metrics reports it. */
async function refusalMetric(ctx: TestApp, reason: string): Promise<number> {
  const res = await ctx.app.inject({ url: '/metrics' });
  assert.equal(res.statusCode, 200);
  const line = new RegExp(`^cobro_dashboard_refusals_total\\{reason="${reason}"\\} (\\d+)$`, 'm').exec(res.body);
  assert.ok(line, `no ${reason} series in the metrics`);
  return Number(line[1]);
}

/** How the dashboard addresses an API key: the first 22 characters of its SHA-256, base64url. */
const keyRef = (key: string) => createHash('sha256').update(key).digest('base64url').slice(0, 22);

/** The error page without its per-response nonce, to compare two answers. */
const withoutNonce = (body: string) => body.replace(/nonce="[^"]+"/g, '');

describeBackends('dashboard refused attempts', (build) => {
  test('a viewer’s refund is refused, and the owner’s audit log shows who tried, what and on which order', async (t) => {
    const ctx = await build(t);
    const { order } = await paidOrder(ctx);
    const owner = await signedInMember(ctx, 'owner');
    const viewer = await signedInMember(ctx, 'viewer');
    const before = await refusalMetric(ctx, 'role');

    await viewer.get(`${T}/payment_orders/${order.id}`);
    const refund = await viewer.post(`${T}/payment_orders/${order.id}/refund?next=secret-in-query`, { reason: 'x' });
    assert.equal(refund.statusCode, 403);

    const [entry, ...rest] = await refusals(ctx);
    assert.equal(rest.length, 0);
    assert.ok(entry);
    assert.equal(entry.actor, viewer.email);
    assert.ok(entry.userId);
    assert.equal(entry.objectType, 'payment_order');
    assert.equal(entry.objectId, order.id);
    assert.equal(entry.ip, '127.0.0.1');
    assert.deepEqual(entry.detail, {
      reason: 'role',
      attempted: 'payments.write',
      method: 'POST',
      path: `${T}/payment_orders/${order.id}/refund`,
    });
    assert.equal(await refusalMetric(ctx, 'role'), before + 1);

    const log = await owner.get(`${T}/settings/audit`);
    assert.equal(log.statusCode, 200, log.body);
    const row = /<tr data-test="refused">.*?<\/tr>/s.exec(log.body)?.[0] ?? '';
    assert.match(row, new RegExp(viewer.email.replace(/[.+]/g, '\\$&')));
    assert.match(row, /access\.denied/);
    assert.match(row, />Refused</);
    assert.match(row, /role: payments\.write/);
    assert.match(row, new RegExp(`POST ${T}/payment_orders/${order.id}/refund<`));
    assert.match(row, new RegExp(`payment_order <code>${order.id}</code>`));
    assert.doesNotMatch(log.body, /secret-in-query/);
  });

  test('a viewer opening the refund page is recorded as refused too', async (t) => {
    const ctx = await build(t);
    const { order } = await paidOrder(ctx);
    const viewer = await signedInMember(ctx, 'viewer');
    assert.equal((await viewer.get(`${T}/payment_orders/${order.id}/refund`)).statusCode, 403);
    const [entry] = await refusals(ctx);
    assert.equal(entry?.detail.reason, 'role');
    assert.equal(entry?.detail.method, 'GET');
    assert.equal(entry?.objectId, order.id);
  });

  test('a signed-in user’s POST without the CSRF token is refused and recorded under their name', async (t) => {
    const ctx = await build(t);
    const { order } = await paidOrder(ctx);
    const owner = await signedInMember(ctx, 'owner');
    const before = await refusalMetric(ctx, 'csrf');

    const res = await owner.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'x' }, { csrf: null });
    assert.equal(res.statusCode, 403);
    const [entry, ...rest] = await refusals(ctx);
    assert.equal(rest.length, 0);
    assert.equal(entry?.actor, owner.email);
    assert.equal(entry?.objectId, order.id);
    assert.equal(entry?.detail.reason, 'csrf');
    assert.equal(entry?.detail.attempted, 'payments.write');
    assert.equal(await refusalMetric(ctx, 'csrf'), before + 1);

    // Without a session there is nobody to name: counted, not written.
    const stranger = new DashboardClient(ctx.app);
    const anonymous = await stranger.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'x' }, { csrf: null });
    assert.equal(anonymous.statusCode, 403);
    assert.equal((await refusals(ctx)).length, 1);
    assert.equal(await refusalMetric(ctx, 'csrf'), before + 2);
  });

  test('another merchant’s and the other mode’s ids answer the same 404 as unknown ids and are recorded', async (t) => {
    const ctx = await build(t);
    const owner = await signedInMember(ctx, 'owner');
    const other = await ctx.createMerchant('test');
    const theirs = await paidOrder(ctx, other);
    const mine = await paidOrder(ctx);
    const endpoint = await ctx.app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: other.authHeaders,
      payload: { url: 'https://hooks.example.com/cobro' },
    });
    assert.equal(endpoint.statusCode, 201, endpoint.body);
    const events = await ctx.app.inject({ url: `/v1/events?entity_id=${theirs.order.id}`, headers: other.authHeaders });
    const eventId: string = events.json().data[0].id;
    const before = { tenancy: await refusalMetric(ctx, 'tenancy'), mode: await refusalMetric(ctx, 'mode') };

    const unknownPage = await owner.get(`${T}/payment_orders/${UNKNOWN}`);
    assert.equal(unknownPage.statusCode, 404);
    assert.equal((await owner.get(`${T}/payment_orders/not-an-id`)).statusCode, 404);
    assert.deepEqual(await refusals(ctx), [], 'an unknown or malformed id is no attempt on anyone');

    const attempts: [string, string, string, string][] = [
      [`${T}/payment_orders/${theirs.order.id}`, 'tenancy', 'payment_order', theirs.order.id],
      [`${T}/checkout_preferences/${theirs.pref.id}`, 'tenancy', 'checkout_preference', theirs.pref.id],
      [`${T}/webhook_endpoints/${endpoint.json().id}`, 'tenancy', 'webhook_endpoint', endpoint.json().id],
      [`${T}/events/${eventId}`, 'tenancy', 'event', eventId],
      [`/dashboard/payment_orders/${mine.order.id}`, 'mode', 'payment_order', mine.order.id],
      [`/dashboard/checkout_preferences/${mine.pref.id}`, 'mode', 'checkout_preference', mine.pref.id],
      [
        `/dashboard/developers/keys/${keyRef(ctx.merchant.apiKey)}/revoke`,
        'mode',
        'api_key',
        keyRef(ctx.merchant.apiKey),
      ],
    ];
    for (const [path] of attempts) {
      // The clock stands still in tests: a millisecond apart, the entries list in this order.
      ctx.clock.advance(1);
      const res = await owner.get(path);
      assert.equal(res.statusCode, 404, path);
      assert.equal(withoutNonce(res.body), withoutNonce(unknownPage.body), path);
    }
    await owner.get(`${T}/payments`);
    ctx.clock.advance(1);
    const refund = await owner.post(`${T}/payment_orders/${theirs.order.id}/refund`, { reason: 'x' });
    assert.equal(refund.statusCode, 404);

    const recorded = (await refusals(ctx)).map((e) => [e.detail.path, e.detail.reason, e.objectType, e.objectId]);
    assert.deepEqual(recorded, [
      ...attempts,
      [`${T}/payment_orders/${theirs.order.id}/refund`, 'tenancy', 'payment_order', theirs.order.id],
    ]);
    for (const entry of await refusals(ctx)) {
      assert.equal(entry.actor, owner.email);
    }
    // The merchant whose objects were tried sees the attempts too, without the other merchant's user's address.
    const theirLog = await refusals(ctx, other.id);
    assert.deepEqual(
      theirLog.map((e) => e.objectId),
      [theirs.order.id, theirs.pref.id, endpoint.json().id, eventId, theirs.order.id],
    );
    assert.ok(theirLog.every((e) => e.actor === "another merchant's user"));
    assert.equal(await refusalMetric(ctx, 'tenancy'), before.tenancy + 5);
    assert.equal(await refusalMetric(ctx, 'mode'), before.mode + 3);
  });

  test('fifty refusals in a row write ten entries, the metric counts fifty, and the next entry carries the rest', async (t) => {
    const ctx = await build(t);
    const { order } = await paidOrder(ctx);
    const viewer = await signedInMember(ctx, 'viewer');
    const before = await refusalMetric(ctx, 'role');
    await viewer.get(`${T}/payment_orders/${order.id}`);
    const csrf = viewer.csrf();
    for (let i = 0; i < 50; i++) {
      const res = await viewer.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'x' }, { csrf });
      assert.equal(res.statusCode, 403);
    }
    const written = await refusals(ctx);
    assert.equal(written.length, 10);
    assert.ok(written.every((e) => e.detail.reason === 'role' && e.detail.suppressed === undefined));
    assert.equal(await refusalMetric(ctx, 'role'), before + 50);

    ctx.clock.advance(61_000);
    const next = await viewer.post(`${T}/payment_orders/${order.id}/refund`, { reason: 'x' }, { csrf });
    assert.equal(next.statusCode, 403);
    const entries = await refusals(ctx);
    assert.equal(entries.length, 11);
    assert.equal(entries.at(-1)?.detail.suppressed, 40);

    const owner = await signedInMember(ctx, 'owner');
    const log = await owner.get(`${T}/settings/audit`);
    assert.match(log.body, /40 similar refusals before this one were counted, not written\./);
  });
});
