import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPreference, errorBody, paymentBody } from '../support/builders.ts';
import { postgresBin, throwawayCluster } from '../support/pg-cluster.ts';
import { buildTestApp } from '../support/test-app.ts';

// The PostgreSQL server dies under a running Cobro (a crash, a failover, a restart for an upgrade).
// While it is down every request fails honestly and retryably: 503, the API's error body and
// Retry-After, never a 500, a wrong answer or a crashed process; when it is back, Cobro is too,
// without a restart. The process-level version, under load, is the crash test's.

test('while PostgreSQL is down the API, the pages and /ready answer 503, and everything works again once it is back', {
  skip: postgresBin() ? false : 'needs PostgreSQL binaries (Debian postgresql)',
}, async (t) => {
  const cluster = await throwawayCluster();
  t.after(() => cluster.destroy());
  const { app, merchant } = await buildTestApp(t, 'postgres', { databaseUrl: cluster.url });
  const before = await createPreference(app, merchant);
  // Connections are open and idle in the pool when the server dies.
  assert.equal(
    (await app.inject({ url: `/v1/checkout_preferences/${before.id}`, headers: merchant.authHeaders })).statusCode,
    200,
  );

  await cluster.crash();
  const answers = {
    ready: await app.inject({ url: '/ready' }),
    read: await app.inject({ url: `/v1/checkout_preferences/${before.id}`, headers: merchant.authHeaders }),
    create: await app.inject({
      method: 'POST',
      url: '/v1/checkout_preferences',
      headers: { ...merchant.authHeaders, 'idempotency-key': 'during-the-outage' },
      payload: paymentBody({ title: 'Made during the outage' }),
    }),
    page: await app.inject({ url: `/checkout/${before.id}` }),
  };
  for (const [what, res] of Object.entries(answers)) {
    assert.equal(res.statusCode, 503, `${what}: ${res.statusCode} ${res.body.slice(0, 200)}`);
  }
  assert.equal(errorBody(answers.read.body).code, 'SERVICE_UNAVAILABLE');
  assert.equal(errorBody(answers.create.body).code, 'SERVICE_UNAVAILABLE');
  assert.equal(answers.create.headers['retry-after'], '1');
  assert.match(String(answers.page.headers['content-type']), /text\/html/);
  // More failed requests than the authentication-failure limit allows in a minute: an outage is
  // not a guessed key, and must not lock the merchant out once the database is back.
  for (let i = 0; i < 120; i++) {
    const res = await app.inject({ url: `/v1/checkout_preferences/${before.id}`, headers: merchant.authHeaders });
    assert.equal(res.statusCode, 503);
  }

  await cluster.start();
  assert.equal((await app.inject({ url: '/ready' })).statusCode, 200);
  const read = await app.inject({ url: `/v1/checkout_preferences/${before.id}`, headers: merchant.authHeaders });
  assert.equal(read.statusCode, 200);
  // The create refused during the outage was not made: its retry with the same key makes it once.
  const retried = await app.inject({
    method: 'POST',
    url: '/v1/checkout_preferences',
    headers: { ...merchant.authHeaders, 'idempotency-key': 'during-the-outage' },
    payload: paymentBody({ title: 'Made during the outage' }),
  });
  assert.equal(retried.statusCode, 201, retried.body);
  const list = await app.inject({
    url: '/v1/checkout_preferences?limit=10',
    headers: merchant.authHeaders,
  });
  const titles = (list.json() as { data?: { title: string }[] }).data?.map((p) => p.title) ?? [];
  assert.deepEqual(
    titles.filter((title) => title === 'Made during the outage'),
    ['Made during the outage'],
  );
  assert.equal((await app.inject({ url: `/checkout/${before.id}` })).statusCode, 200);
});
