import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync } from 'node:fs';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { Webhook } from 'standardwebhooks';
import { ManualClock } from '../../src/domain/shared/clock.ts';
import { newWebhookSecret, signatureHeader } from '../../src/domain/webhooks/signing.ts';
import type { Cobro } from '../../src/main.ts';
import { createPreference } from '../support/builders.ts';
import type { ChaosMode, ChaosRequest } from '../support/chaos-receiver.ts';
import { seededRandom, startCanary, startChaosReceiver } from '../support/chaos-receiver.ts';
import { METHOD_CURRENCY, pay } from '../support/payments.ts';
import { runAuthTests } from '../support/run-auth-tests.ts';
import type { Backend, BuildOptions, TestApp, TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';
import { drainWebhooks, startReceiver } from '../support/webhook-receiver.ts';
import { assertError, sharedBuild, UNKNOWN_ID } from './helpers.ts';

/**
 * RELIABILITY.md R9–R11 and the restart and scale-out promises of issue 4, on a compressed retry
 * schedule, plus the API of every webhook route. The delivery job runs by hand: `tick()` claims
 * what is due and starts it, bounded loops wait for the outcome.
 */

const REPORTS_DIR = fileURLToPath(new URL('../../reports/', import.meta.url));

function report(backend: Backend | 'none', line: Record<string, unknown>): void {
  mkdirSync(REPORTS_DIR, { recursive: true });
  appendFileSync(
    `${REPORTS_DIR}webhooks-${backend}.jsonl`,
    `${JSON.stringify({ at: new Date().toISOString(), backend, ...line })}\n`,
  );
}

/** Follows the wall clock (retries fall due as real time passes) and still moves forward on `advance`. */
class WallClock extends ManualClock {
  private offsetMs = 0;

  override now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  override advance(ms: number): void {
    this.offsetMs += ms;
  }

  override set(date: Date | string): void {
    this.offsetMs = new Date(date).getTime() - Date.now();
  }
}

/** Nine short delays: ten attempts in about two seconds instead of three days. */
const FAST_DELAYS = '0.05,0.1,0.1,0.2,0.2,0.3,0.3,0.4,0.5';

const ALLOW_LOOPBACK = { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' };

/** Ticks the delivery job of each app until `done` says so; fails after `maxMs`. Returns the time it took. */
async function driveUntil(
  cobros: readonly Cobro[],
  done: () => Promise<boolean> | boolean,
  what: string,
  maxMs = 60_000,
  onTick?: (claimed: number[]) => void,
): Promise<number> {
  const started = Date.now();
  for (let round = 0; round < 100_000; round++) {
    if (await done()) {
      await Promise.all(cobros.map((c) => c.delivery.idle()));
      return Date.now() - started;
    }
    if (Date.now() - started > maxMs) {
      break;
    }
    // Several instances race for the same rows; who asks first changes every round.
    const order = cobros.map((_, i) => (i + round) % cobros.length);
    const claimed = new Array<number>(cobros.length).fill(0);
    await Promise.all(
      order.map(async (i) => {
        claimed[i] = (await cobros[i]?.delivery.tick()) ?? 0;
      }),
    );
    onTick?.(claimed);
    await sleep(10);
  }
  await Promise.all(cobros.map((c) => c.delivery.idle()));
  assert.fail(`${what}: not done after ${maxMs} ms`);
}

type DeliveryRow = { id: string; eventId: string; endpointId: string | null; status: string; attempts: number };

async function deliveryRows(cobro: Cobro, merchantId: string): Promise<DeliveryRow[]> {
  const rows = await cobro.database.db
    .selectFrom('webhook_deliveries')
    .select(['id', 'event_id', 'endpoint_id', 'status', 'attempts'])
    .where('merchant_id', '=', merchantId)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    eventId: r.event_id,
    endpointId: r.endpoint_id,
    status: r.status,
    attempts: Number(r.attempts),
  }));
}

async function allSettled(cobro: Cobro, merchantId: string, expected?: number): Promise<boolean> {
  const rows = await deliveryRows(cobro, merchantId);
  return (expected === undefined || rows.length === expected) && rows.every((r) => r.status !== 'PENDING');
}

async function createEndpoint(
  app: FastifyInstance,
  merchant: TestMerchant,
  payload: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v1/webhook_endpoints',
    headers: merchant.authHeaders,
    payload,
  });
  assert.equal(res.statusCode, 201, res.body);
  const body = res.json() as { id: string; secret: string };
  return { id: body.id, secret: body.secret };
}

/** Every event of the merchant, following next_cursor (bounded). */
async function allEvents(
  app: FastifyInstance,
  merchant: TestMerchant,
): Promise<{ id: string; event_type: string; entity_id: string }[]> {
  const out: { id: string; event_type: string; entity_id: string }[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res: LightMyRequestResponse = await app.inject({
      method: 'GET',
      url: `/v1/events?limit=100${cursor ? `&cursor=${cursor}` : ''}`,
      headers: merchant.authHeaders,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: { id: string; event_type: string; entity_id: string }[]; next_cursor: string };
    out.push(...body.data);
    cursor = body.next_cursor;
    if (!cursor) {
      return out;
    }
  }
  assert.fail('more than 100 pages of events');
}

type AttemptLog = { attempt: number; status_code: number | null; error: string | null; started_at: string };
type DeliveryBody = {
  id: string;
  endpoint_id: string | null;
  url: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  attempt_log: AttemptLog[];
};

async function deliveriesOf(app: FastifyInstance, merchant: TestMerchant, eventId: string): Promise<DeliveryBody[]> {
  const res = await app.inject({
    method: 'GET',
    url: `/v1/events/${eventId}/deliveries`,
    headers: merchant.authHeaders,
  });
  assert.equal(res.statusCode, 200, res.body);
  return (res.json() as { data: DeliveryBody[] }).data;
}

function headersOf(r: ChaosRequest): Record<string, string> {
  return { 'webhook-id': r.webhookId, 'webhook-timestamp': r.timestamp, 'webhook-signature': r.signature };
}

/** Verifies with the independent `standardwebhooks` package; returns the parsed body. */
function verified(secret: string, r: ChaosRequest): Record<string, unknown> {
  assert.ok(r.body !== null, `request ${r.webhookId} has no body`);
  return new Webhook(secret).verify(r.body, headersOf(r)) as Record<string, unknown>;
}

/** One card payment: OPENED and CLOSED. Returns the order id. */
async function payByCard(app: FastifyInstance, merchant: TestMerchant, extra: Record<string, unknown> = {}) {
  const pref = await createPreference(app, merchant, { payment_method_types: ['CARD'], ...extra });
  const res = await pay(app, merchant, pref.id);
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

/** Mixed methods and outcomes, with the number of status changes (events) each makes. */
const PAYMENT_MIX: readonly { type: string; outcome: string; events: number }[] = [
  { type: 'CARD', outcome: 'APPROVED', events: 2 },
  { type: 'PIX', outcome: 'PENDING', events: 1 },
  { type: 'CARD', outcome: 'REJECTED', events: 2 },
  { type: 'PIX', outcome: 'APPROVED', events: 2 },
  { type: 'BANK_TRANSFER', outcome: 'APPROVED', events: 2 },
  { type: 'CASH', outcome: 'PENDING', events: 1 },
  { type: 'PIX', outcome: 'REJECTED', events: 2 },
  { type: 'CASH', outcome: 'APPROVED', events: 2 },
];

/** Makes exactly `total` status changes with the mix above; returns the number of payments. */
async function makeStatusChanges(app: FastifyInstance, merchant: TestMerchant, total: number): Promise<number> {
  let made = 0;
  let payments = 0;
  for (let i = 0; made < total && i < total; i++) {
    const pick = PAYMENT_MIX[i % PAYMENT_MIX.length];
    assert.ok(pick);
    const step = total - made === 1 ? { type: 'PIX', outcome: 'PENDING', events: 1 } : pick;
    const currency = METHOD_CURRENCY[step.type];
    const pref = await createPreference(app, merchant, { currency, payment_method_types: [step.type] });
    const res = await pay(app, merchant, pref.id, { outcome: step.outcome });
    assert.equal(res.statusCode, 201, res.body);
    made += step.events;
    payments++;
  }
  return payments;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

describeBackends('webhook reliability', (build, backend) => {
  // ---- R9 ---------------------------------------------------------------------------------------

  test('R9: a receiver that fails most attempts still gets all 300 events, signed, same id on every retry, processed once each', async (t) => {
    const canary = await startCanary();
    t.after(() => canary.close());
    const modes: [ChaosMode, number][] = [
      [{ kind: '500' }, 50],
      [{ kind: 'slow', ms: 1500 }, 10],
      [{ kind: 'reset-before-body' }, 5],
      [{ kind: 'reset-after-body' }, 5],
      [{ kind: '3xx', location: `${canary.url}/stolen` }, 5],
      [{ kind: 'hang' }, 5],
      [{ kind: 'ok' }, 20],
    ];
    const receiver = await startChaosReceiver({ seed: 20260115, modes, maxConsecutiveFailures: 7 });
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, {
      clock: new WallClock(),
      env: {
        ...ALLOW_LOOPBACK,
        WEBHOOK_RETRY_DELAYS: FAST_DELAYS,
        // RELIABILITY.md R9's 1 s. At 300 ms a loaded machine (the whole suite on two cores) made
        // the sender give up on the receiver's forced `ok` answers too, and one event in 300 ran
        // out of attempts though the receiver had failed it only 7 times.
        WEBHOOK_TIMEOUT_MS: '1000',
        WEBHOOK_MAX_CONCURRENCY: '4',
      },
    });
    const endpoint = await createEndpoint(app, merchant, { url: `${receiver.url}/hooks?source=r9` });

    const started = Date.now();
    const payments = await makeStatusChanges(app, merchant, 300);
    const events = await allEvents(app, merchant);
    assert.equal(events.length, 300, `expected 300 status changes from ${payments} payments`);
    const eventIds = new Set(events.map((e) => e.id));
    const drivenMs = await driveUntil([cobro], () => allSettled(cobro, merchant.id, 300), 'R9 deliveries', 180_000);

    const rows = await deliveryRows(cobro, merchant.id);
    const delivered = rows.filter((r) => r.status === 'SUCCEEDED').length;
    const undelivered = rows.filter((r) => r.status !== 'SUCCEEDED');
    assert.equal(
      delivered,
      300,
      JSON.stringify(
        undelivered.map((row) => ({
          ...row,
          // What the receiver saw of the same event: its answer per attempt it received.
          received: receiver.requests.filter((q) => q.webhookId === row.eventId).map((q) => q.mode),
        })),
      ),
    );
    // Receiver-side dedupe by webhook-id: every event processed, exactly one processed copy each.
    assert.deepEqual(new Set(receiver.processed.keys()), eventIds);

    // Every request carries one event's id; every one with a body verifies and names that same id.
    const byId = new Map<string, ChaosRequest[]>();
    let verifiedCount = 0;
    for (const r of receiver.requests) {
      assert.ok(eventIds.has(r.webhookId), `unknown webhook-id ${r.webhookId}`);
      byId.set(r.webhookId, [...(byId.get(r.webhookId) ?? []), r]);
      assert.equal(r.url, '/hooks?source=r9');
      assert.equal(r.contentType, 'application/json');
      // webhook-timestamp is the attempt's own time, not the event's.
      assert.ok(
        Math.abs(Number(r.timestamp) * 1000 - r.receivedAt) < 5_000,
        `timestamp ${r.timestamp} far from arrival ${r.receivedAt}`,
      );
      if (r.body !== null) {
        const body = verified(endpoint.secret, r);
        assert.equal(body.id, r.webhookId, r.body);
        assert.ok(Buffer.byteLength(r.body) <= 20 * 1024, `payload of ${Buffer.byteLength(r.body)} bytes`);
        assert.ok(!r.body.includes(merchant.apiSecret) && !r.body.includes('4242424242424242'), r.body);
        verifiedCount++;
      }
    }
    assert.equal(byId.size, 300);
    // Retries of one event span seconds: their timestamps move with them.
    let freshTimestamps = 0;
    for (const list of byId.values()) {
      const stamps = new Set(list.map((r) => r.timestamp));
      const first = list[0];
      const last = list[list.length - 1];
      if (first && last && stamps.size > 1) {
        assert.ok(Number(last.timestamp) > Number(first.timestamp), JSON.stringify(list.map((r) => r.timestamp)));
        freshTimestamps++;
      }
    }
    assert.ok(freshTimestamps > 0, 'no event was retried across a second boundary');
    const modeCount = (kind: string) => receiver.requests.filter((r) => r.mode === kind).length;
    assert.ok(modeCount('3xx') > 0, 'the run exercised redirects');
    assert.equal(canary.connections(), 0, 'a redirect was followed');
    assert.ok(
      receiver.maxConcurrentConnections() <= 4,
      `receiver saw ${receiver.maxConcurrentConnections()} connections at once`,
    );
    const attemptsPerEvent = rows.map((r) => r.attempts);
    assert.ok(Math.max(...attemptsPerEvent) <= 10);
    assert.ok(receiver.requests.length <= attemptsPerEvent.reduce((a, b) => a + b, 0));

    report(backend, {
      test: 'R9 hostile receiver',
      seed: 20260115,
      events: 300,
      payments,
      delivered,
      requests: receiver.requests.length,
      verified: verifiedCount,
      modes: Object.fromEntries(modes.map(([m]) => [m.kind, modeCount(m.kind)])),
      attemptsMax: Math.max(...attemptsPerEvent),
      attemptsMean: Number(mean(attemptsPerEvent).toFixed(2)),
      duplicatesIgnored: receiver.duplicatesIgnored(),
      maxConcurrentConnections: receiver.maxConcurrentConnections(),
      canaryConnections: canary.connections(),
      freshTimestampEvents: freshTimestamps,
      deliveryMs: drivenMs,
      totalMs: Date.now() - started,
      pass: true,
    });
  });

  // ---- R10 --------------------------------------------------------------------------------------

  test('R10: a receiver that always answers 500 gets exactly 10 attempts, then the delivery is FAILED, listed, and redelivered once with the same webhook-id', async (t) => {
    const receiver = await startChaosReceiver({ seed: 1, modes: [[{ kind: '500' }, 1]] });
    t.after(() => receiver.close());
    const delays = [0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05];
    const { app, merchant, cobro } = await build(t, {
      clock: new WallClock(),
      env: { ...ALLOW_LOOPBACK, WEBHOOK_RETRY_DELAYS: delays.join(',') },
    });
    const a = await createEndpoint(app, merchant, {
      url: `${receiver.url}/a`,
      event_types: ['PAYMENT_ORDER.CLOSED'],
    });
    await payByCard(app, merchant);
    await driveUntil([cobro], () => allSettled(cobro, merchant.id, 1), 'exhaustion');

    assert.equal(receiver.requests.length, 10, JSON.stringify(receiver.requests.map((r) => r.mode)));
    const eventId = receiver.requests[0]?.webhookId ?? '';
    assert.ok(receiver.requests.every((r) => r.webhookId === eventId));
    for (const r of receiver.requests) {
      verified(a.secret, r);
    }
    for (let i = 1; i < receiver.requests.length; i++) {
      const gap = (receiver.requests[i]?.receivedAt ?? 0) - (receiver.requests[i - 1]?.receivedAt ?? 0);
      assert.ok(gap >= 0.9 * 50 - 5, `attempt ${i + 1} came ${gap} ms after the previous one`);
    }
    const [failed] = await deliveriesOf(app, merchant, eventId);
    assert.ok(failed);
    assert.equal(failed.status, 'FAILED', JSON.stringify(failed));
    assert.equal(failed.attempts, 10);
    assert.equal(failed.endpoint_id, a.id);
    assert.deepEqual(
      failed.attempt_log.map((l) => [l.attempt, l.status_code]),
      Array.from({ length: 10 }, (_, i) => [i + 1, 500]),
    );

    const redeliver = await app.inject({
      method: 'POST',
      url: `/v1/events/${eventId}/redeliver`,
      headers: merchant.authHeaders,
    });
    assert.equal(redeliver.statusCode, 202, redeliver.body);
    await driveUntil([cobro], () => allSettled(cobro, merchant.id, 1), 'redelivery');
    assert.equal(receiver.requests.length, 11, 'exactly one more attempt');
    assert.equal(receiver.requests[10]?.webhookId, eventId);
    const [after] = await deliveriesOf(app, merchant, eventId);
    assert.equal(after?.status, 'FAILED', JSON.stringify(after));
    assert.equal(after?.attempt_log.length, 11);
    report(backend, { test: 'R10 exhaustion', attempts: 10, afterRedeliver: 11, pass: true });
  });

  test('R10: a receiver answering 410 Gone gets one attempt, its endpoint is disabled, and neither later events nor a redelivery reach it', async (t) => {
    const gone = await startChaosReceiver({ seed: 2, modes: [[{ kind: '410' }, 1]] });
    t.after(() => gone.close());
    const healthy = await startChaosReceiver({ seed: 3, modes: [[{ kind: 'ok' }, 1]] });
    t.after(() => healthy.close());
    const { app, merchant, cobro } = await build(t, {
      clock: new WallClock(),
      env: { ...ALLOW_LOOPBACK, WEBHOOK_RETRY_DELAYS: FAST_DELAYS },
    });
    const b = await createEndpoint(app, merchant, { url: `${gone.url}/b`, event_types: ['PAYMENT_ORDER.CLOSED'] });
    await createEndpoint(app, merchant, { url: `${healthy.url}/ok`, event_types: ['PAYMENT_ORDER.CLOSED'] });
    await payByCard(app, merchant);
    await driveUntil([cobro], () => allSettled(cobro, merchant.id, 2), '410');
    assert.equal(gone.requests.length, 1);
    const eventId = gone.requests[0]?.webhookId ?? '';
    const read = await app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${b.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(read.json().enabled, false, read.body);
    assert.match(String(read.json().disabled_reason), /410/, read.body);
    const [toGone] = (await deliveriesOf(app, merchant, eventId)).filter((d) => d.endpoint_id === b.id);
    assert.equal(toGone?.status, 'FAILED', JSON.stringify(toGone));
    assert.deepEqual(
      toGone?.attempt_log.map((l) => l.status_code),
      [410],
    );

    await payByCard(app, merchant);
    const redeliver = await app.inject({
      method: 'POST',
      url: `/v1/events/${eventId}/redeliver`,
      headers: merchant.authHeaders,
    });
    assert.equal(redeliver.statusCode, 202, redeliver.body);
    await driveUntil([cobro], () => allSettled(cobro, merchant.id), 'later events');
    assert.equal(healthy.requests.length, 3, 'the healthy endpoint got both events and the redelivery');
    assert.equal(gone.requests.length, 1, 'the disabled endpoint got nothing more');
    report(backend, { test: 'R10 410 Gone', attemptsToGone: gone.requests.length, pass: true });
  });

  test('R10: after a 429 with Retry-After: 1 the next attempt waits at least a second, then succeeds', async (t) => {
    const receiver = await startChaosReceiver({
      seed: 4,
      modes: [[{ kind: 'ok' }, 1]],
      script: (attempt) => (attempt === 1 ? { kind: '429', retryAfterSeconds: 1 } : undefined),
    });
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, {
      clock: new WallClock(),
      env: { ...ALLOW_LOOPBACK, WEBHOOK_RETRY_DELAYS: FAST_DELAYS },
    });
    const c = await createEndpoint(app, merchant, { url: `${receiver.url}/c`, event_types: ['PAYMENT_ORDER.CLOSED'] });
    await payByCard(app, merchant);
    await driveUntil([cobro], () => allSettled(cobro, merchant.id, 1), '429');
    assert.deepEqual(
      receiver.requests.map((r) => r.mode),
      ['429', 'ok'],
    );
    const [first, second] = receiver.requests;
    assert.ok(first && second);
    const gap = second.receivedAt - first.receivedAt;
    assert.ok(gap >= 950, `the retry came ${gap} ms after the 429 (the schedule alone says 50 ms)`);
    assert.equal(second.webhookId, first.webhookId);
    verified(c.secret, second);
    const [d] = await deliveriesOf(app, merchant, first.webhookId);
    assert.equal(d?.status, 'SUCCEEDED', JSON.stringify(d));
    assert.deepEqual(
      d?.attempt_log.map((l) => l.status_code),
      [429, 200],
    );
    report(backend, { test: 'R10 429 Retry-After', retryAfterSeconds: 1, gapMs: gap, pass: true });
  });

  test('R10: a receiver answering a 100 MB body is read only up to the cap, the attempt completes, and memory stays flat', async (t) => {
    const receiver = await startChaosReceiver({
      seed: 5,
      modes: [[{ kind: 'huge-body', bytes: 100 * 1024 * 1024 }, 1]],
    });
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, {
      clock: new WallClock(),
      env: { ...ALLOW_LOOPBACK, WEBHOOK_RETRY_DELAYS: FAST_DELAYS, WEBHOOK_TIMEOUT_MS: '10000' },
    });
    await createEndpoint(app, merchant, { url: `${receiver.url}/d`, event_types: ['PAYMENT_ORDER.CLOSED'] });
    await payByCard(app, merchant);
    const rssBefore = process.memoryUsage().rss;
    const ms = await driveUntil([cobro], () => allSettled(cobro, merchant.id, 1), 'huge body');
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    assert.equal(receiver.requests.length, 1);
    const [d] = await deliveriesOf(app, merchant, receiver.requests[0]?.webhookId ?? '');
    assert.equal(d?.status, 'SUCCEEDED', JSON.stringify(d));
    assert.deepEqual(
      d?.attempt_log.map((l) => l.status_code),
      [200],
    );
    assert.ok(
      receiver.hugeBytesWritten() < 32 * 1024 * 1024,
      `the sender read on: ${receiver.hugeBytesWritten()} bytes were written`,
    );
    assert.ok(rssGrowth < 32 * 1024 * 1024, `RSS grew by ${rssGrowth} bytes`);
    report(backend, {
      test: 'R10 huge body',
      bodyBytes: 100 * 1024 * 1024,
      bytesWrittenBeforeHangUp: receiver.hugeBytesWritten(),
      rssGrowthMiB: Number((rssGrowth / 1048576).toFixed(1)),
      ms,
      pass: true,
    });
  });

  // ---- R11: rotation ------------------------------------------------------------------------------

  test('R11: after rotate_secret an endpoint gets two v1 signatures and both secrets verify; after the overlap only the new one', async (t) => {
    const receiver = await startChaosReceiver({ seed: 6, modes: [[{ kind: 'ok' }, 1]] });
    t.after(() => receiver.close());
    const { app, merchant, cobro, clock } = await build(t, {
      env: { ...ALLOW_LOOPBACK, WEBHOOK_SECRET_OVERLAP_SECONDS: '30' },
    });
    const endpoint = await createEndpoint(app, merchant, {
      url: `${receiver.url}/rotating`,
      event_types: ['PAYMENT_ORDER.CLOSED'],
    });
    const rotated = await app.inject({
      method: 'POST',
      url: `/v1/webhook_endpoints/${endpoint.id}/rotate_secret`,
      headers: merchant.authHeaders,
    });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const next = rotated.json() as { secret: string; previous_secret_expires_at: string };
    assert.notEqual(next.secret, endpoint.secret);
    assert.equal(
      next.previous_secret_expires_at,
      `${new Date(clock.now().getTime() + 30_000).toISOString().slice(0, 19)}Z`,
    );
    await payByCard(app, merchant);
    await drainWebhooks(cobro);
    const during = receiver.requests[0];
    assert.ok(during);
    assert.equal(during.signature.split(' ').filter((s) => s.startsWith('v1,')).length, 2, during.signature);
    verified(endpoint.secret, during);
    verified(next.secret, during);

    clock.advance(31_000);
    await payByCard(app, merchant);
    await drainWebhooks(cobro);
    const afterOverlap = receiver.requests[1];
    assert.ok(afterOverlap);
    assert.equal(afterOverlap.signature.split(' ').length, 1, afterOverlap.signature);
    verified(next.secret, afterOverlap);
    assert.throws(() => verified(endpoint.secret, afterOverlap), /No matching signature/);
  });

  test("R11: rotating the merchant's signing secret signs status_changes_webhook deliveries with both during the overlap, then only the new", async (t) => {
    const receiver = await startChaosReceiver({ seed: 7, modes: [[{ kind: 'ok' }, 1]] });
    t.after(() => receiver.close());
    const { app, merchant, cobro, clock } = await build(t, {
      env: { ...ALLOW_LOOPBACK, WEBHOOK_SECRET_OVERLAP_SECONDS: '30' },
    });
    const settings = await app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: merchant.authHeaders });
    assert.equal(settings.statusCode, 200, settings.body);
    const old = String(settings.json().signing_secret);
    const rotated = await app.inject({
      method: 'POST',
      url: '/v1/webhook_settings/rotate_secret',
      headers: merchant.authHeaders,
    });
    assert.equal(rotated.statusCode, 200, rotated.body);
    const fresh = String(rotated.json().secret);
    assert.notEqual(fresh, old);
    const reread = await app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: merchant.authHeaders });
    assert.equal(reread.json().signing_secret, fresh, reread.body);
    const hook = { custom_urls: { status_changes_webhook: `${receiver.url}/pref?token=abc` } };
    await payByCard(app, merchant, hook);
    await drainWebhooks(cobro);
    assert.equal(receiver.requests.length, 2, 'OPENED and CLOSED');
    for (const r of receiver.requests) {
      assert.equal(r.url, '/pref?token=abc');
      assert.equal(r.signature.split(' ').length, 2, r.signature);
      verified(old, r);
      verified(fresh, r);
    }
    clock.advance(31_000);
    await payByCard(app, merchant, hook);
    await drainWebhooks(cobro);
    assert.equal(receiver.requests.length, 4);
    for (const r of receiver.requests.slice(2)) {
      assert.equal(r.signature.split(' ').length, 1, r.signature);
      verified(fresh, r);
      assert.throws(() => verified(old, r), /No matching signature/);
    }
  });

  test('R11: every endpoint and every merchant gets its own whsec_ secret of at least 24 random bytes', async (t) => {
    const { app, merchant, createMerchant } = await build(t);
    const secrets: string[] = [];
    for (let i = 0; i < 10; i++) {
      const e = await createEndpoint(app, merchant, { url: `https://hooks.example.com/${i}` });
      secrets.push(e.secret);
      if (i % 3 === 0) {
        const r = await app.inject({
          method: 'POST',
          url: `/v1/webhook_endpoints/${e.id}/rotate_secret`,
          headers: merchant.authHeaders,
        });
        assert.equal(r.statusCode, 200, r.body);
        secrets.push(String(r.json().secret));
      }
    }
    for (const m of [merchant, await createMerchant(), await createMerchant()]) {
      const s = await app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: m.authHeaders });
      assert.equal(s.statusCode, 200, s.body);
      secrets.push(String(s.json().signing_secret));
    }
    assert.equal(new Set(secrets).size, secrets.length, 'secrets repeat');
    for (const s of secrets) {
      assert.match(s, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
      assert.ok(Buffer.from(s.slice(6), 'base64').length >= 24, s);
    }
  });

  // ---- restart, leases, several workers -----------------------------------------------------------

  test('a delivery interrupted by a restart in the middle of its retry schedule completes after the restart, with the same webhook-id', async (t) => {
    const receiver = await startChaosReceiver({
      seed: 8,
      modes: [[{ kind: 'ok' }, 1]],
      script: (attempt) => (attempt <= 2 ? { kind: '500' } : undefined),
    });
    t.after(() => receiver.close());
    const env = { ...ALLOW_LOOPBACK, WEBHOOK_RETRY_DELAYS: '0.2,0.2,0.2' };
    const first = await build(t, { clock: new WallClock(), env });
    const endpoint = await createEndpoint(first.app, first.merchant, {
      url: `${receiver.url}/restart`,
      event_types: ['PAYMENT_ORDER.CLOSED'],
    });
    await payByCard(first.app, first.merchant);
    assert.equal(await first.cobro.delivery.tick(), 1);
    await first.cobro.delivery.idle();
    assert.equal(receiver.requests.length, 1);
    const [pending] = await deliveryRows(first.cobro, first.merchant.id);
    assert.equal(pending?.status, 'PENDING', JSON.stringify(pending));
    assert.equal(pending?.attempts, 1);
    await first.cobro.close();

    const second = await build(t, { clock: new WallClock(), env, databaseUrl: first.config.databaseUrl });
    await driveUntil([second.cobro], () => allSettled(second.cobro, first.merchant.id, 1), 'after restart');
    assert.deepEqual(
      receiver.requests.map((r) => r.mode),
      ['500', '500', 'ok'],
    );
    const ids = new Set(receiver.requests.map((r) => r.webhookId));
    assert.equal(ids.size, 1);
    for (const r of receiver.requests) {
      verified(endpoint.secret, r);
    }
    const [d] = await deliveriesOf(second.app, first.merchant, receiver.requests[0]?.webhookId ?? '');
    assert.equal(d?.status, 'SUCCEEDED', JSON.stringify(d));
    assert.deepEqual(
      d?.attempt_log.map((l) => l.status_code),
      [500, 500, 200],
    );
  });

  test('a delivery leased by a worker that died is picked up by another once the lease lapses, and sent once', async (t) => {
    const receiver = await startChaosReceiver({ seed: 9, modes: [[{ kind: 'ok' }, 1]] });
    t.after(() => receiver.close());
    const firstClock = new WallClock();
    const first = await build(t, { clock: firstClock, env: ALLOW_LOOPBACK });
    await createEndpoint(first.app, first.merchant, {
      url: `${receiver.url}/lease`,
      event_types: ['PAYMENT_ORDER.CLOSED'],
    });
    await payByCard(first.app, first.merchant);
    // The worker claims the delivery (a 60 s lease) and dies before sending it.
    const claimed = await first.cobro.database.uow.transaction((repos) =>
      repos.webhookDeliveries.claimDue(firstClock.now().getTime(), 100, 60_000),
    );
    assert.equal(claimed.filter((d) => d.merchantId === first.merchant.id).length, 1);
    await first.cobro.close();

    const clock = new WallClock();
    const second = await build(t, { clock, env: ALLOW_LOOPBACK, databaseUrl: first.config.databaseUrl });
    assert.equal(await second.cobro.delivery.tick(), 0, 'the lease still holds');
    await second.cobro.delivery.idle();
    assert.equal(receiver.requests.length, 0);
    clock.advance(61_000);
    await driveUntil([second.cobro], () => allSettled(second.cobro, first.merchant.id, 1), 'lapsed lease');
    assert.equal(receiver.requests.length, 1);
    const [row] = await deliveryRows(second.cobro, first.merchant.id);
    assert.equal(row?.status, 'SUCCEEDED');
    assert.equal(row?.attempts, 1);
  });

  test('a delivery that waits for a free slot longer than its lease is still sent once, by one instance', async (t) => {
    const receiver = await startChaosReceiver({ seed: 12, modes: [[{ kind: 'slow', ms: 50 }, 1]] });
    t.after(() => receiver.close());
    const env = { ...ALLOW_LOOPBACK, WEBHOOK_MAX_CONCURRENCY: '1', WEBHOOK_TIMEOUT_MS: '15000' };
    const clock = new WallClock();
    const one = await build(t, { clock, env });
    const two = await build(t, { clock, env, databaseUrl: one.config.databaseUrl });
    await createEndpoint(one.app, one.merchant, {
      url: `${receiver.url}/queue`,
      event_types: ['PAYMENT_ORDER.CLOSED'],
    });
    for (let i = 0; i < 8; i++) {
      await payByCard(one.app, one.merchant);
    }
    // One instance takes all eight (a 60 s lease); they go one at a time to the endpoint's only slot.
    assert.equal(await one.cobro.delivery.tick(), 8);
    // Each send "takes" 10 s of the shared clock, as a slow receiver well inside the 15 s timeout
    // would: the eighth waits 70 s, past its lease, while both instances keep ticking. (A send
    // cannot take longer than the timeout, so the clock never moves more than that per request:
    // a lease renewed at half its length always outlives the send it covers.)
    let seen = 0;
    await driveUntil(
      [one.cobro, two.cobro],
      () => allSettled(one.cobro, one.merchant.id, 8),
      'queued past the lease',
      30_000,
      () => {
        clock.advance((receiver.requests.length - seen) * 10_000);
        seen = receiver.requests.length;
      },
    );
    const ids = receiver.requests.map((r) => r.webhookId);
    assert.equal(new Set(ids).size, 8);
    assert.equal(ids.length, 8, `sent ${ids.length} times for 8 events`);
    const rows = await deliveryRows(one.cobro, one.merchant.id);
    assert.deepEqual(
      rows.map((r) => [r.status, r.attempts]),
      Array.from({ length: 8 }, () => ['SUCCEEDED', 1]),
    );
  });

  test('two app instances on one database deliver each event once', async (t) => {
    const receiver = await startChaosReceiver({ seed: 10, modes: [[{ kind: 'ok' }, 1]] });
    t.after(() => receiver.close());
    const env = { ...ALLOW_LOOPBACK, WEBHOOK_MAX_CONCURRENCY: '2' };
    const one = await build(t, { clock: new WallClock(), env });
    const two = await build(t, { clock: new WallClock(), env, databaseUrl: one.config.databaseUrl });
    await createEndpoint(one.app, one.merchant, { url: `${receiver.url}/scale` });
    const claims = [0, 0];
    let making = true;
    // Events keep arriving while both instances tick, so the two race for every new row.
    const producer = (async () => {
      try {
        await makeStatusChanges(one.app, one.merchant, 120);
      } finally {
        making = false;
      }
    })();
    await driveUntil(
      [one.cobro, two.cobro],
      async () => !making && (await allSettled(one.cobro, one.merchant.id, 120)),
      'two workers',
      60_000,
      (claimed) => {
        claims[0] = (claims[0] ?? 0) + (claimed[0] ?? 0);
        claims[1] = (claims[1] ?? 0) + (claimed[1] ?? 0);
      },
    );
    await producer;
    const ids = receiver.requests.map((r) => r.webhookId);
    assert.equal(ids.length, 120, 'one request per event');
    assert.equal(new Set(ids).size, 120);
    assert.equal((claims[0] ?? 0) + (claims[1] ?? 0), 120, `claims ${JSON.stringify(claims)}`);
    const rows = await deliveryRows(one.cobro, one.merchant.id);
    assert.ok(rows.every((r) => r.status === 'SUCCEEDED' && r.attempts === 1));
    report(backend, { test: 'two workers', events: 120, claims, pass: true });
  });
});

// ---- R11: signatures, independent of the database ---------------------------------------------------

describe('webhook signatures (R11)', () => {
  test('1,000 payloads signed by Cobro verify with standardwebhooks, and changing one byte of body, id or timestamp fails', () => {
    const random = seededRandom(11);
    const pick = (s: string) => s[Math.floor(random() * s.length)] ?? 'x';
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const TEXT = `${ALPHABET} ñéü€😀"\\\n<>&`;
    const now = Math.floor(Date.now() / 1000);
    const secrets = new Set<string>();
    let tamperedFailed = 0;
    for (let i = 0; i < 1000; i++) {
      const secret = newWebhookSecret();
      secrets.add(secret);
      const id = Array.from({ length: 22 }, () => pick(ALPHABET)).join('');
      const timestamp = now - Math.floor(random() * 120);
      const body = JSON.stringify({
        id,
        event_type: 'PAYMENT_ORDER.CLOSED',
        external_id: Array.from({ length: 1 + Math.floor(random() * 60) }, () => pick(TEXT)).join(''),
        amount: Math.floor(random() * 300_000) / 100,
        sequence: i,
      });
      const headers = {
        'webhook-id': id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signatureHeader([secret], id, timestamp, body),
      };
      const wh = new Webhook(secret);
      assert.deepEqual(wh.verify(body, headers), JSON.parse(body));

      const bytes = Buffer.from(body);
      const at = Math.floor(random() * bytes.length);
      bytes[at] = (bytes[at] ?? 0) ^ 0x01;
      const tamperedBody = bytes.toString('utf8');
      assert.throws(() => wh.verify(tamperedBody, headers), /No matching signature/, `body byte ${at}`);
      const idAt = Math.floor(random() * id.length);
      const tamperedId = `${id.slice(0, idAt)}${id[idAt] === 'A' ? 'B' : 'A'}${id.slice(idAt + 1)}`;
      assert.throws(() => wh.verify(body, { ...headers, 'webhook-id': tamperedId }), /No matching signature/);
      assert.throws(
        () => wh.verify(body, { ...headers, 'webhook-timestamp': String(timestamp - 1) }),
        /No matching signature/,
      );
      tamperedFailed += 3;
    }
    assert.equal(secrets.size, 1000, 'every secret is new');
    for (const s of secrets) {
      assert.match(s, /^whsec_[A-Za-z0-9+/]+={0,2}$/);
      assert.ok(Buffer.from(s.slice(6), 'base64').length >= 24);
    }
    report('none', { test: 'R11 signatures', signed: 1000, verified: 1000, tamperedFailed, pass: true });
  });

  test('a header signed with two secrets verifies with either one alone', () => {
    const [a, b] = [newWebhookSecret(), newWebhookSecret()];
    const id = 'msg_rotation';
    const ts = Math.floor(Date.now() / 1000);
    const body = '{"ok":true}';
    const header = signatureHeader([b, a], id, ts, body);
    assert.match(header, /^v1,[A-Za-z0-9+/=]+ v1,[A-Za-z0-9+/=]+$/);
    const headers = { 'webhook-id': id, 'webhook-timestamp': String(ts), 'webhook-signature': header };
    assert.deepEqual(new Webhook(a).verify(body, headers), { ok: true });
    assert.deepEqual(new Webhook(b).verify(body, headers), { ok: true });
    assert.throws(() => new Webhook(newWebhookSecret()).verify(body, headers), /No matching signature/);
  });
});

// ---- the API of every webhook route -------------------------------------------------------------------

type Build = (t: TestContext, options?: BuildOptions) => Promise<TestApp>;

const ENDPOINT_BODY_KEYS = [
  'created_at',
  'description',
  'disabled_reason',
  'enabled',
  'event_types',
  'id',
  'updated_at',
  'url',
];

describeBackends('webhook API', (build: Build) => {
  test('creating an endpoint answers 201 with the endpoint and its whsec_ secret, which reading it back never shows', async (t) => {
    const { app, merchant } = await build(t);
    const res = await app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: merchant.authHeaders,
      payload: {
        url: 'https://hooks.example.com/cobro?token=abc',
        event_types: ['PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.REFUNDED'],
        description: 'orders',
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const created = res.json();
    assert.deepEqual(Object.keys(created).sort(), [...ENDPOINT_BODY_KEYS, 'secret'].sort(), res.body);
    assert.equal(created.url, 'https://hooks.example.com/cobro?token=abc');
    assert.deepEqual(created.event_types, ['PAYMENT_ORDER.CLOSED', 'PAYMENT_ORDER.REFUNDED']);
    assert.equal(created.enabled, true);
    assert.equal(created.disabled_reason, null);
    assert.match(created.secret, /^whsec_/);
    const read = await app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${created.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(Object.keys(read.json()).sort(), ENDPOINT_BODY_KEYS, read.body);
    const { secret: _secret, ...withoutSecret } = created;
    assert.deepEqual(read.json(), withoutSecret);
    const all = await app.inject({
      method: 'POST',
      url: '/v1/webhook_endpoints',
      headers: merchant.authHeaders,
      payload: { url: 'https://hooks.example.com/all' },
    });
    assert.equal(all.statusCode, 201, all.body);
    assert.equal(all.json().event_types, null, 'no event_types: every event type');
  });

  test('the endpoint list shows the newest first, pages with next_cursor, and leaves out deleted endpoints', async (t) => {
    const { app, merchant, clock } = await build(t);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await createEndpoint(app, merchant, { url: `https://hooks.example.com/${i}` })).id);
      clock.advance(1000);
    }
    const page1 = await app.inject({
      method: 'GET',
      url: '/v1/webhook_endpoints?limit=2',
      headers: merchant.authHeaders,
    });
    assert.equal(page1.statusCode, 200, page1.body);
    assert.deepEqual(
      page1.json().data.map((e: { id: string }) => e.id),
      [ids[2], ids[1]],
    );
    assert.equal(page1.json().has_more, true);
    const page2 = await app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints?limit=2&cursor=${page1.json().next_cursor}`,
      headers: merchant.authHeaders,
    });
    assert.deepEqual(
      page2.json().data.map((e: { id: string }) => e.id),
      [ids[0]],
      page2.body,
    );
    assert.equal(page2.json().next_cursor, null);
    const del = await app.inject({
      method: 'DELETE',
      url: `/v1/webhook_endpoints/${ids[1]}`,
      headers: merchant.authHeaders,
    });
    assert.equal(del.statusCode, 200, del.body);
    assert.deepEqual(del.json(), { id: ids[1], deleted: true });
    const list = await app.inject({ method: 'GET', url: '/v1/webhook_endpoints', headers: merchant.authHeaders });
    assert.deepEqual(
      list.json().data.map((e: { id: string }) => e.id),
      [ids[2], ids[0]],
      list.body,
    );
    const gone = await app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${ids[1]}`,
      headers: merchant.authHeaders,
    });
    assertError(gone, 404, 'NOT_FOUND');
  });

  for (const method of ['POST', 'PATCH'] as const) {
    test(`${method} /v1/webhook_endpoints/{id} changes the url, the event types, the description and enabled, and keeps what it is not sent`, async (t) => {
      const { app, merchant } = await build(t);
      const e = await createEndpoint(app, merchant, { url: 'https://hooks.example.com/a', description: 'first' });
      const res = await app.inject({
        method,
        url: `/v1/webhook_endpoints/${e.id}`,
        headers: merchant.authHeaders,
        payload: { url: 'https://hooks.example.com/b', event_types: ['PAYMENT_ORDER.EXPIRED'], enabled: false },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().url, 'https://hooks.example.com/b');
      assert.deepEqual(res.json().event_types, ['PAYMENT_ORDER.EXPIRED']);
      assert.equal(res.json().enabled, false);
      assert.equal(res.json().description, 'first', 'untouched');
      assert.equal(typeof res.json().disabled_reason, 'string');
      const again = await app.inject({
        method,
        url: `/v1/webhook_endpoints/${e.id}`,
        headers: merchant.authHeaders,
        payload: { enabled: true, event_types: null, description: null },
      });
      assert.equal(again.statusCode, 200, again.body);
      assert.equal(again.json().enabled, true);
      assert.equal(again.json().disabled_reason, null);
      assert.equal(again.json().event_types, null);
      assert.equal(again.json().description, null);
      assert.equal(again.json().url, 'https://hooks.example.com/b');
      const read = await app.inject({
        method: 'GET',
        url: `/v1/webhook_endpoints/${e.id}`,
        headers: merchant.authHeaders,
      });
      assert.deepEqual(read.json(), again.json());
    });
  }

  test('a deleted or disabled endpoint receives no later events', async (t) => {
    const receiver = await startReceiver();
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, { env: ALLOW_LOOPBACK });
    const deleted = await createEndpoint(app, merchant, { url: `${receiver.url}/deleted` });
    const disabled = await createEndpoint(app, merchant, { url: `${receiver.url}/disabled` });
    await createEndpoint(app, merchant, { url: `${receiver.url}/kept` });
    const del = await app.inject({
      method: 'DELETE',
      url: `/v1/webhook_endpoints/${deleted.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(del.statusCode, 200, del.body);
    const off = await app.inject({
      method: 'PATCH',
      url: `/v1/webhook_endpoints/${disabled.id}`,
      headers: merchant.authHeaders,
      payload: { enabled: false },
    });
    assert.equal(off.statusCode, 200, off.body);
    await payByCard(app, merchant);
    await drainWebhooks(cobro);
    assert.deepEqual(
      receiver.received.map((r) => r.url),
      ['/kept', '/kept'],
    );
  });

  test('webhook_settings shows the same signing secret on every read until it is rotated', async (t) => {
    const { app, merchant, clock } = await build(t, { env: { WEBHOOK_SECRET_OVERLAP_SECONDS: '3600' } });
    const read = () => app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: merchant.authHeaders });
    const a = await read();
    assert.equal(a.statusCode, 200, a.body);
    assert.deepEqual(Object.keys(a.json()), ['signing_secret']);
    assert.equal((await read()).json().signing_secret, a.json().signing_secret);
    const rotated = await app.inject({
      method: 'POST',
      url: '/v1/webhook_settings/rotate_secret',
      headers: merchant.authHeaders,
    });
    assert.equal(rotated.statusCode, 200, rotated.body);
    assert.deepEqual(rotated.json(), {
      secret: (await read()).json().signing_secret,
      previous_secret_expires_at: `${new Date(clock.now().getTime() + 3_600_000).toISOString().slice(0, 19)}Z`,
    });
    assert.notEqual(rotated.json().secret, a.json().signing_secret);
  });

  test('events are listed newest first, filtered by event_type and entity_id, and read one by one with the body exactly as sent', async (t) => {
    const { app, merchant, clock } = await build(t);
    const first = await payByCard(app, merchant, { external_id: 'first' });
    clock.advance(1000);
    const second = await payByCard(app, merchant, { external_id: 'second' });
    const list = await app.inject({ method: 'GET', url: '/v1/events', headers: merchant.authHeaders });
    assert.equal(list.statusCode, 200, list.body);
    const data = list.json().data as {
      id: string;
      event_type: string;
      entity_id: string;
      sequence: number;
      data: Record<string, unknown>;
    }[];
    assert.equal(data.length, 4, list.body);
    assert.deepEqual(
      data.map((e) => e.entity_id),
      [second, second, first, first],
    );
    for (const e of data) {
      assert.equal(e.data.id, e.id);
      assert.equal(e.data.event_type, e.event_type);
      assert.equal(e.data.sequence, e.sequence);
      assert.equal(e.data.payment_order_id, e.entity_id);
    }
    const closed = await app.inject({
      method: 'GET',
      url: '/v1/events?event_type=PAYMENT_ORDER.CLOSED',
      headers: merchant.authHeaders,
    });
    assert.deepEqual(
      closed.json().data.map((e: { entity_id: string; event_type: string }) => [e.entity_id, e.event_type]),
      [
        [second, 'PAYMENT_ORDER.CLOSED'],
        [first, 'PAYMENT_ORDER.CLOSED'],
      ],
    );
    const ofFirst = await app.inject({
      method: 'GET',
      url: `/v1/events?entity_id=${first}`,
      headers: merchant.authHeaders,
    });
    assert.equal(ofFirst.json().data.length, 2, ofFirst.body);
    const paged = await app.inject({ method: 'GET', url: '/v1/events?limit=3', headers: merchant.authHeaders });
    assert.equal(paged.json().data.length, 3);
    const rest = await app.inject({
      method: 'GET',
      url: `/v1/events?limit=3&cursor=${paged.json().next_cursor}`,
      headers: merchant.authHeaders,
    });
    assert.equal(rest.json().data.length, 1, rest.body);
    const one = await app.inject({ method: 'GET', url: `/v1/events/${data[0]?.id}`, headers: merchant.authHeaders });
    assert.equal(one.statusCode, 200, one.body);
    assert.deepEqual(one.json(), data[0]);
  });

  test('an event lists its deliveries with every attempt, and redeliver answers 202 and makes one more attempt', async (t) => {
    const receiver = await startReceiver((_r, n) => ({ status: n === 1 ? 503 : 200 }));
    t.after(() => receiver.close());
    const { app, merchant, cobro } = await build(t, { env: { ...ALLOW_LOOPBACK, WEBHOOK_RETRY_DELAYS: '0' } });
    const e = await createEndpoint(app, merchant, {
      url: `${receiver.url}/log`,
      event_types: ['PAYMENT_ORDER.CLOSED'],
    });
    await payByCard(app, merchant);
    await drainWebhooks(cobro);
    const eventId = String(receiver.received[0]?.headers['webhook-id']);
    const log = await app.inject({
      method: 'GET',
      url: `/v1/events/${eventId}/deliveries`,
      headers: merchant.authHeaders,
    });
    assert.equal(log.statusCode, 200, log.body);
    const [d] = log.json().data as (DeliveryBody & Record<string, unknown>)[];
    assert.ok(d, log.body);
    assert.equal(d.endpoint_id, e.id);
    assert.equal(d.url, `${receiver.url}/log`);
    assert.equal(d.status, 'SUCCEEDED');
    assert.equal(d.attempts, 2);
    assert.equal(d.next_attempt_at, null);
    assert.equal(d.last_status_code, 200);
    assert.deepEqual(
      d.attempt_log.map((a) => [a.attempt, a.status_code]),
      [
        [1, 503],
        [2, 200],
      ],
    );
    for (const a of d.attempt_log) {
      assert.match(a.started_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      assert.equal(typeof (a as unknown as { duration_ms: unknown }).duration_ms, 'number');
    }
    const redeliver = await app.inject({
      method: 'POST',
      url: `/v1/events/${eventId}/redeliver`,
      headers: merchant.authHeaders,
    });
    assert.equal(redeliver.statusCode, 202, redeliver.body);
    assert.equal(redeliver.json().data[0].status, 'PENDING', redeliver.body);
    await drainWebhooks(cobro);
    assert.equal(receiver.received.length, 3);
    assert.equal(receiver.received[2]?.headers['webhook-id'], eventId);
    const after = await deliveriesOf(app, merchant, eventId);
    assert.equal(after[0]?.attempt_log.length, 3, JSON.stringify(after));
  });

  test('bad endpoint urls and unknown event types answer 400 WRONG_INPUT naming the field, on create and on update', async (t) => {
    const { app, merchant } = await build(t);
    const e = await createEndpoint(app, merchant, { url: 'https://hooks.example.com/ok' });
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ url: 'not a url' }, /^url /],
      [{ url: '/relative/path' }, /^url /],
      [{ url: 'ftp://hooks.example.com/x' }, /^url /],
      [{ url: 'javascript:alert(1)' }, /^url /],
      [{ url: 'https://user:pass@hooks.example.com/x' }, /^url /],
      [{ url: 'http://127.0.0.1:8080/x' }, /^url /],
      [{ url: 'http://localhost/x' }, /^url /],
      [{ url: '' }, /url/],
      [{ url: `https://hooks.example.com/${'a'.repeat(2100)}` }, /url/],
      [
        { url: 'https://hooks.example.com/x', event_types: ['PAYMENT_ORDER.PAID'] },
        /^event_types: PAYMENT_ORDER\.PAID/,
      ],
      [{ url: 'https://hooks.example.com/x', event_types: ['payment_order.closed'] }, /^event_types/],
      [{ url: 'https://hooks.example.com/x', event_types: [] }, /event_types/],
      [{ url: 'https://hooks.example.com/x', event_types: 'PAYMENT_ORDER.CLOSED' }, /event_types/],
      [{ url: 'https://hooks.example.com/x', description: 'x'.repeat(501) }, /description/],
      [{}, /url/],
    ];
    for (const [payload, message] of bad) {
      const created = await app.inject({
        method: 'POST',
        url: '/v1/webhook_endpoints',
        headers: merchant.authHeaders,
        payload,
      });
      assertError(created, 400, 'WRONG_INPUT');
      assert.match(String(created.json().messages[0]), message, created.body);
      if (Object.keys(payload).length > 0) {
        const updated = await app.inject({
          method: 'PATCH',
          url: `/v1/webhook_endpoints/${e.id}`,
          headers: merchant.authHeaders,
          payload,
        });
        assertError(updated, 400, 'WRONG_INPUT');
        assert.match(String(updated.json().messages[0]), message, updated.body);
      }
    }
    const notBoolean = await app.inject({
      method: 'POST',
      url: `/v1/webhook_endpoints/${e.id}`,
      headers: merchant.authHeaders,
      payload: { enabled: 'yes' },
    });
    assertError(notBoolean, 400, 'WRONG_INPUT');
    const list = await app.inject({ method: 'GET', url: '/v1/webhook_endpoints', headers: merchant.authHeaders });
    assert.equal(list.json().data.length, 1, 'nothing was created');
    const read = await app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${e.id}`,
      headers: merchant.authHeaders,
    });
    assert.equal(read.json().url, 'https://hooks.example.com/ok', 'nothing was changed');
  });

  test('bad paging of events and endpoints answers 400 WRONG_INPUT', async (t) => {
    const { app, merchant } = await build(t);
    for (const url of ['/v1/events', '/v1/webhook_endpoints']) {
      for (const query of ['limit=0', 'limit=101', 'limit=abc', 'cursor=bm90IGEgY3Vyc29y']) {
        const res = await app.inject({ method: 'GET', url: `${url}?${query}`, headers: merchant.authHeaders });
        assertError(res, 400, 'WRONG_INPUT');
      }
    }
  });

  test("unknown ids and other merchants' ids answer the same 404 on every webhook route that takes an id", async (t) => {
    const { app, merchant: owner, createMerchant } = await build(t);
    const other = await createMerchant();
    await payByCard(app, owner);
    // Made after the payment, so no delivery to this public URL is ever queued.
    const endpoint = await createEndpoint(app, owner, { url: 'https://hooks.example.com/mine' });
    const [event] = await allEvents(app, owner);
    assert.ok(event);
    type Request = { method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object };
    const routes: [string, string, (id: string) => Request][] = [
      ['GET endpoint', endpoint.id, (id) => ({ method: 'GET', url: `/v1/webhook_endpoints/${id}` })],
      [
        'POST endpoint',
        endpoint.id,
        (id) => ({ method: 'POST', url: `/v1/webhook_endpoints/${id}`, payload: { enabled: false } }),
      ],
      [
        'PATCH endpoint',
        endpoint.id,
        (id) => ({ method: 'PATCH', url: `/v1/webhook_endpoints/${id}`, payload: { enabled: false } }),
      ],
      ['DELETE endpoint', endpoint.id, (id) => ({ method: 'DELETE', url: `/v1/webhook_endpoints/${id}` })],
      [
        'rotate endpoint secret',
        endpoint.id,
        (id) => ({ method: 'POST', url: `/v1/webhook_endpoints/${id}/rotate_secret` }),
      ],
      ['GET event', event.id, (id) => ({ method: 'GET', url: `/v1/events/${id}` })],
      ['GET deliveries', event.id, (id) => ({ method: 'GET', url: `/v1/events/${id}/deliveries` })],
      ['POST redeliver', event.id, (id) => ({ method: 'POST', url: `/v1/events/${id}/redeliver` })],
    ];
    for (const [name, theirs, request] of routes) {
      const unknown = await app.inject({ ...request(UNKNOWN_ID), headers: other.authHeaders });
      assertError(unknown, 404, 'NOT_FOUND');
      const malformed = await app.inject({ ...request('not-an-id'), headers: other.authHeaders });
      assert.equal(malformed.statusCode, 404, `${name}: ${malformed.body}`);
      const foreign = await app.inject({ ...request(theirs), headers: other.authHeaders });
      assert.equal(foreign.statusCode, 404, `${name}: ${foreign.body}`);
      assert.equal(foreign.body, unknown.body, name);
    }
    const theirList = await app.inject({ method: 'GET', url: '/v1/events', headers: other.authHeaders });
    assert.deepEqual(theirList.json().data, [], theirList.body);
    const theirEndpoints = await app.inject({
      method: 'GET',
      url: '/v1/webhook_endpoints',
      headers: other.authHeaders,
    });
    assert.deepEqual(theirEndpoints.json().data, [], theirEndpoints.body);
    const mine = await app.inject({
      method: 'GET',
      url: `/v1/webhook_endpoints/${endpoint.id}`,
      headers: owner.authHeaders,
    });
    assert.equal(mine.json().enabled, true, 'the other merchant changed nothing');
    const secrets = await Promise.all(
      [owner, other].map(async (m) =>
        String(
          (await app.inject({ method: 'GET', url: '/v1/webhook_settings', headers: m.authHeaders })).json()
            .signing_secret,
        ),
      ),
    );
    assert.notEqual(secrets[0], secrets[1]);
  });
});

describeBackends('webhook API authentication', (build: Build) => {
  const shared = sharedBuild((t) => build(t, { env: { AUTH_FAILURES_PER_MINUTE: '1000000' } }));
  const endpointOf = async (ctx: TestApp) =>
    (await createEndpoint(ctx.app, ctx.merchant, { url: 'https://hooks.example.com/auth' })).id;
  const eventOf = async (ctx: TestApp) => {
    await payByCard(ctx.app, ctx.merchant);
    const [event] = await allEvents(ctx.app, ctx.merchant);
    assert.ok(event);
    return event.id;
  };
  const routes: [
    string,
    (ctx: TestApp) => Promise<{ method: 'GET' | 'POST' | 'PATCH' | 'DELETE'; url: string; payload?: object }>,
  ][] = [
    [
      'POST /v1/webhook_endpoints',
      async () => ({ method: 'POST', url: '/v1/webhook_endpoints', payload: { url: 'https://hooks.example.com/x' } }),
    ],
    ['GET /v1/webhook_endpoints', async () => ({ method: 'GET', url: '/v1/webhook_endpoints' })],
    [
      'GET /v1/webhook_endpoints/{id}',
      async (ctx) => ({ method: 'GET', url: `/v1/webhook_endpoints/${await endpointOf(ctx)}` }),
    ],
    [
      'POST /v1/webhook_endpoints/{id}',
      async (ctx) => ({
        method: 'POST',
        url: `/v1/webhook_endpoints/${await endpointOf(ctx)}`,
        payload: { description: 'x' },
      }),
    ],
    [
      'PATCH /v1/webhook_endpoints/{id}',
      async (ctx) => ({
        method: 'PATCH',
        url: `/v1/webhook_endpoints/${await endpointOf(ctx)}`,
        payload: { description: 'x' },
      }),
    ],
    [
      'DELETE /v1/webhook_endpoints/{id}',
      async (ctx) => ({ method: 'DELETE', url: `/v1/webhook_endpoints/${await endpointOf(ctx)}` }),
    ],
    [
      'POST /v1/webhook_endpoints/{id}/rotate_secret',
      async (ctx) => ({ method: 'POST', url: `/v1/webhook_endpoints/${await endpointOf(ctx)}/rotate_secret` }),
    ],
    ['GET /v1/webhook_settings', async () => ({ method: 'GET', url: '/v1/webhook_settings' })],
    [
      'POST /v1/webhook_settings/rotate_secret',
      async () => ({ method: 'POST', url: '/v1/webhook_settings/rotate_secret' }),
    ],
    ['GET /v1/events', async () => ({ method: 'GET', url: '/v1/events' })],
    ['GET /v1/events/{id}', async (ctx) => ({ method: 'GET', url: `/v1/events/${await eventOf(ctx)}` })],
    [
      'GET /v1/events/{id}/deliveries',
      async (ctx) => ({ method: 'GET', url: `/v1/events/${await eventOf(ctx)}/deliveries` }),
    ],
    [
      'POST /v1/events/{id}/redeliver',
      async (ctx) => ({ method: 'POST', url: `/v1/events/${await eventOf(ctx)}/redeliver` }),
    ],
  ];
  for (const [name, prepare] of routes) {
    describe(name, () => {
      runAuthTests(shared, async (ctx) => ({ ...(await prepare(ctx)), headers: ctx.merchant.authHeaders }));
    });
  }
});
