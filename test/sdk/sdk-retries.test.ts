import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { TestContext } from 'node:test';
import { describe, test } from 'node:test';
import { createCobroClient } from '@cobro/sdk';
import { backoffMs, retryAfterMs } from '../../packages/sdk/src/client.ts';
import type { TestApp } from '../support/test-app.ts';
import { buildTestApp, describeBackends } from '../support/test-app.ts';

/**
 * The client's retries, seen from the network: a proxy on loopback between the client and a
 * running Cobro forwards each request, and for the attempts a test picks either drops the answer
 * after the server has handled the request (the socket is destroyed) or answers by itself.
 */

type Seen = { method: string; url: string; idempotencyKey: string | undefined };
type Intercept = (
  seen: Seen,
  n: number,
) => 'forward' | 'drop-answer' | { status: number; headers?: Record<string, string> };

async function startProxy(t: TestContext, target: string, intercept: Intercept) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        idempotencyKey: req.headers['idempotency-key'] as string | undefined,
      };
      seen.push(entry);
      const action = intercept(entry, seen.length);
      if (typeof action === 'object') {
        res.writeHead(action.status, { 'content-type': 'application/json; charset=utf-8', ...action.headers });
        res.end(JSON.stringify({ messages: ['from the proxy'], code: 'SERVICE_UNAVAILABLE' }));
        return;
      }
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)),
      ) as Record<string, string>;
      const answer = await fetch(`${target}${entry.url}`, {
        method: entry.method,
        headers,
        ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      });
      const body = Buffer.from(await answer.arrayBuffer());
      if (action === 'drop-answer') {
        // The server did the work; its answer never reaches the client.
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, Object.fromEntries(answer.headers));
      res.end(body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.after(
    () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) {
          s.destroy();
        }
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

async function serve(build: (t: TestContext) => Promise<TestApp>, t: TestContext) {
  const ctx = await build(t);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  return { ...ctx, baseUrl: `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}` };
}

const preference = (externalId: string) =>
  ({
    type: 'PAYMENT',
    origin: 'API',
    amount: 16.9,
    currency: 'USD',
    title: 'Retried',
    external_id: externalId,
  }) as const;

describeBackends('@cobro/sdk retries', (build) => {
  test('a POST whose answer was lost is retried with the same Idempotency-Key: same object, made once', async (t) => {
    const ctx = await serve(build, t);
    const proxy = await startProxy(t, ctx.baseUrl, (seen, n) =>
      seen.method === 'POST' && n === 1 ? 'drop-answer' : 'forward',
    );
    const cobro = createCobroClient({
      baseUrl: proxy.url,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const created = await cobro.POST('/v1/checkout_preferences', { body: preference('lost-answer-1') });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));

    const posts = proxy.seen.filter((s) => s.method === 'POST');
    assert.equal(posts.length, 2, JSON.stringify(proxy.seen));
    assert.match(
      posts[0]?.idempotencyKey ?? '',
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(posts[1]?.idempotencyKey, posts[0]?.idempotencyKey);

    const direct = createCobroClient({
      baseUrl: ctx.baseUrl,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const listed = await direct.GET('/v1/checkout_preferences', {
      params: { query: { external_id: 'lost-answer-1' } },
    });
    assert.deepEqual(
      listed.data?.data.map((p) => p.id),
      [created.data?.id],
      'the server holds one preference, the one answered',
    );
    // Each POST gets its own key: a second create is a second preference.
    await cobro.POST('/v1/checkout_preferences', { body: preference('lost-answer-1') });
    const keys = new Set(proxy.seen.filter((s) => s.method === 'POST').map((s) => s.idempotencyKey));
    assert.equal(keys.size, 2);
    const after = await direct.GET('/v1/checkout_preferences', { params: { query: { external_id: 'lost-answer-1' } } });
    assert.equal(after.data?.data.length, 2);
  });

  test("keeps the caller's own Idempotency-Key across retries", async (t) => {
    const ctx = await serve(build, t);
    const proxy = await startProxy(t, ctx.baseUrl, (_seen, n) => (n === 1 ? 'drop-answer' : 'forward'));
    const cobro = createCobroClient({
      baseUrl: proxy.url,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const first = await cobro.POST('/v1/checkout_preferences', {
      params: { header: { 'idempotency-key': 'order-1001' } },
      body: preference('own-key'),
    });
    assert.equal(first.response.status, 201, JSON.stringify(first.error));
    const again = await cobro.POST('/v1/checkout_preferences', {
      headers: { 'Idempotency-Key': 'order-1001' },
      body: preference('own-key'),
    });
    assert.equal(again.data?.id, first.data?.id);
    assert.deepEqual(
      proxy.seen.map((s) => s.idempotencyKey),
      ['order-1001', 'order-1001', 'order-1001'],
    );
  });
});

describe('@cobro/sdk retry rules', () => {
  test('a 503 with Retry-After is waited out, then the request succeeds with the same key', async (t) => {
    const ctx = await serve(buildTestApp, t);
    const proxy = await startProxy(t, ctx.baseUrl, (_seen, n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': '1' } } : 'forward',
    );
    const cobro = createCobroClient({
      baseUrl: proxy.url,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const started = Date.now();
    const created = await cobro.POST('/v1/checkout_preferences', { body: preference('after-503') });
    const waited = Date.now() - started;
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    assert.ok(waited >= 950, `waited ${waited} ms for Retry-After: 1`);
    assert.equal(proxy.seen.length, 2);
    assert.equal(proxy.seen[1]?.idempotencyKey, proxy.seen[0]?.idempotencyKey);
  });

  test('429, 502 and 504 are retried up to maxRetries, then the last answer is returned as an error', async (t) => {
    const statuses = [429, 502, 504];
    const proxy = await startProxy(t, 'http://127.0.0.1:9', (_seen, n) => ({
      status: statuses[(n - 1) % 3] ?? 500,
      headers: { 'retry-after': '0' },
    }));
    const cobro = createCobroClient({ baseUrl: proxy.url, apiKey: 'ck_test_x', apiSecret: 'cs_test_x', maxRetries: 2 });
    const answer = await cobro.GET('/v1/payment_methods');
    assert.equal(proxy.seen.length, 3);
    assert.equal(answer.response.status, 504);
    assert.equal(answer.error?.code, 'SERVICE_UNAVAILABLE');
    const none = createCobroClient({ baseUrl: proxy.url, apiKey: 'ck_test_x', apiSecret: 'cs_test_x', maxRetries: 0 });
    await none.GET('/v1/payment_methods');
    assert.equal(proxy.seen.length, 4);
  });

  test('a 400 is not retried', async (t) => {
    const ctx = await serve(buildTestApp, t);
    const proxy = await startProxy(t, ctx.baseUrl, () => 'forward');
    const cobro = createCobroClient({
      baseUrl: proxy.url,
      apiKey: ctx.merchant.apiKey,
      apiSecret: ctx.merchant.apiSecret,
    });
    const refused = await cobro.POST('/v1/checkout_preferences', {
      body: { ...preference('bad'), type: 'ONE_TIME' as 'PAYMENT' },
    });
    assert.equal(refused.response.status, 400);
    assert.equal(refused.error?.code, 'WRONG_INPUT');
    assert.equal(proxy.seen.length, 1);
  });

  test('a server that cannot be reached is tried 1 + maxRetries times, then the network error is thrown', async () => {
    let tries = 0;
    const cobro = createCobroClient({
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'ck_test_x',
      apiSecret: 'cs_test_x',
      maxRetries: 1,
      fetch: (request) => {
        tries++;
        return fetch(request);
      },
    });
    await assert.rejects(cobro.GET('/v1/payment_methods'), TypeError);
    assert.equal(tries, 2);
  });

  test('Retry-After is read as seconds or as an HTTP-date; backoff doubles with jitter', () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    assert.equal(retryAfterMs('3', now), 3000);
    assert.equal(retryAfterMs('0', now), 0);
    assert.equal(retryAfterMs('Sun, 01 Mar 2026 12:00:05 GMT', now), 5000);
    assert.equal(retryAfterMs('Sun, 01 Mar 2026 11:59:00 GMT', now), 0);
    assert.equal(retryAfterMs(null, now), null);
    assert.equal(retryAfterMs('soon', now), null);
    assert.deepEqual(
      [0, 1, 2, 3, 10].map((attempt) => backoffMs(attempt, () => 1)),
      [500, 1000, 2000, 4000, 8000],
    );
    assert.deepEqual(
      [0, 1, 2].map((attempt) => backoffMs(attempt, () => 0)),
      [250, 500, 1000],
    );
  });
});
