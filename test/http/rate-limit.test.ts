import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { errorBody, paymentBody } from '../support/builders.ts';
import type { TestMerchant } from '../support/test-app.ts';
import { describeBackends } from '../support/test-app.ts';

// RELIABILITY.md R16 and INTERFACE.md §1 (429 TOO_MANY_REQUESTS with Retry-After): a key over
// its per-second limit is cut off without touching another key; an address that keeps failing
// authentication is cut off after AUTH_FAILURES_PER_MINUTE failures.

const JSON_TYPE = 'application/json; charset=utf-8';

function assertTooManyRequests(res: LightMyRequestResponse): void {
  assert.equal(res.statusCode, 429, res.body);
  assert.equal(res.headers['content-type'], JSON_TYPE, res.body);
  assert.equal(errorBody(res.body).code, 'TOO_MANY_REQUESTS', res.body);
  const retryAfter = String(res.headers['retry-after']);
  assert.match(retryAfter, /^[1-9]\d*$/, `Retry-After must be whole seconds ≥ 1, got ${retryAfter}`);
}

function list(app: FastifyInstance, headers: Record<string, string>, remoteAddress?: string) {
  return app.inject({
    method: 'GET',
    url: '/v1/checkout_preferences?limit=1',
    headers,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

function create(app: FastifyInstance, merchant: TestMerchant) {
  return app.inject({
    method: 'POST',
    url: '/v1/checkout_preferences',
    headers: merchant.authHeaders,
    payload: paymentBody(),
  });
}

describeBackends('Rate limits', (build) => {
  test('a key bursting past RATE_LIMIT_PER_SECOND gets 429 with Retry-After while a key at a modest pace gets none', async (t) => {
    const { app, merchant: a, createMerchant } = await build(t, { env: { RATE_LIMIT_PER_SECOND: '20' } });
    const b = await createMerchant();
    const fromA: LightMyRequestResponse[] = [];
    const fromB: LightMyRequestResponse[] = [];

    // Over two seconds: A sends 2,000 requests in bursts of 100 every 100 ms; B sends 10 a second.
    const started = Date.now();
    for (let tick = 0; tick < 20; tick++) {
      const burst = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? create(app, a) : list(app, a.authHeaders)));
      const modest = tick % 2 === 0 ? create(app, b) : list(app, b.authHeaders);
      const [answersA, answerB] = await Promise.all([Promise.all(burst), modest]);
      fromA.push(...answersA);
      fromB.push(answerB);
      await sleep(Math.max(0, started + (tick + 1) * 100 - Date.now()));
    }
    const elapsedSeconds = Math.ceil((Date.now() - started) / 1000);

    const limitedA = fromA.filter((r) => r.statusCode === 429);
    const servedA = fromA.filter((r) => r.statusCode >= 200 && r.statusCode < 300);
    assert.ok(limitedA.length > 0, 'A was never limited');
    for (const res of limitedA) {
      assertTooManyRequests(res);
    }
    // A fixed one-second window lets at most 20 through per window the run touched.
    assert.ok(
      servedA.length <= 20 * (elapsedSeconds + 1),
      `A was served ${servedA.length} times in ${elapsedSeconds} s at 20/s`,
    );
    assert.equal(servedA.length + limitedA.length, fromA.length, 'A got only 2xx or 429');

    const limitedB = fromB.filter((r) => r.statusCode === 429);
    assert.equal(limitedB.length, 0, limitedB.map((r) => r.body).join('\n'));
    for (const res of fromB) {
      assert.ok(res.statusCode === 200 || res.statusCode === 201, res.body);
    }
    const fiveXX = [...fromA, ...fromB].filter((r) => r.statusCode >= 500);
    assert.equal(fiveXX.length, 0, fiveXX.map((r) => r.body).join('\n'));

    // Once the window has passed, A is served again.
    await sleep(1100);
    const again = await list(app, a.authHeaders);
    assert.equal(again.statusCode, 200, again.body);
  });

  test('the 429 of the key limiter carries the error body on every route of /v1, writes included', async (t) => {
    const { app, merchant } = await build(t, { env: { RATE_LIMIT_PER_SECOND: '2' } });
    const answers = await Promise.all([
      list(app, merchant.authHeaders),
      list(app, merchant.authHeaders),
      create(app, merchant),
      app.inject({ method: 'GET', url: '/v1/currencies', headers: merchant.authHeaders }),
      app.inject({
        method: 'POST',
        url: '/v1/payment_links',
        headers: { ...merchant.authHeaders, 'idempotency-key': 'limited-1' },
        payload: { title: 'Plan', amount: 5, currency: 'USD', interval_type: 'MONTH' },
      }),
    ]);
    const limited = answers.filter((r) => r.statusCode === 429);
    assert.ok(limited.length >= 3, answers.map((r) => `${r.statusCode} ${r.body}`).join('\n'));
    for (const res of limited) {
      assertTooManyRequests(res);
    }
    // A limited write was not processed: the same idempotency key is free afterwards.
    await sleep(1100);
    const retried = await app.inject({
      method: 'POST',
      url: '/v1/payment_links',
      headers: { ...merchant.authHeaders, 'idempotency-key': 'limited-1' },
      payload: { title: 'Plan', amount: 5, currency: 'USD', interval_type: 'MONTH' },
    });
    assert.ok(retried.statusCode === 201, retried.body);
  });

  test('an address is answered 429 after AUTH_FAILURES_PER_MINUTE failed authentications, other addresses are not', async (t) => {
    const { app, merchant } = await build(t, { env: { AUTH_FAILURES_PER_MINUTE: '10' } });
    const attacker = '203.0.113.7';
    const wrong = { 'x-api-key': merchant.apiKey, 'x-api-secret': `${merchant.apiSecret}x` };
    const failures: LightMyRequestResponse[] = [];
    for (let i = 0; i < 10; i++) {
      failures.push(await list(app, i % 2 === 0 ? wrong : { 'x-api-key': 'ck_test_guess000000000' }, attacker));
    }
    for (const res of failures) {
      assert.equal(res.statusCode, 401, res.body);
      assert.equal(errorBody(res.body).code, 'UNAUTHORIZED');
    }
    const blocked = await list(app, wrong, attacker);
    assertTooManyRequests(blocked);
    assert.ok(Number(blocked.headers['retry-after']) <= 60, String(blocked.headers['retry-after']));
    // Guessing stops working even with the right secret: the address is cut off, not the key.
    const rightButBlocked = await list(app, merchant.authHeaders, attacker);
    assertTooManyRequests(rightButBlocked);

    const neighbour = await list(app, merchant.authHeaders, '198.51.100.20');
    assert.equal(neighbour.statusCode, 200, neighbour.body);
    const neighbourFailure = await list(app, wrong, '198.51.100.21');
    assert.equal(neighbourFailure.statusCode, 401, neighbourFailure.body);
  });

  test('successful authentications never count towards the auth-failure limit', async (t) => {
    const { app, merchant } = await build(t, { env: { AUTH_FAILURES_PER_MINUTE: '3' } });
    const address = '192.0.2.44';
    const answers: LightMyRequestResponse[] = [];
    for (let i = 0; i < 30; i++) {
      answers.push(await list(app, merchant.authHeaders, address));
    }
    assert.deepEqual(
      answers.map((r) => r.statusCode),
      Array.from({ length: 30 }, () => 200),
    );
  });
});
