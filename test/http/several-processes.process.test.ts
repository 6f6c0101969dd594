import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { cobroArgs } from '../support/dist.ts';
import type { CobroProcess } from '../support/processes.ts';
import { freshPostgresDatabase, startCobroProcess } from '../support/processes.ts';

// RELIABILITY.md R1, R7 and R8 with real processes: three API processes (`cobro serve
// --jobs=off`) and two workers (`cobro worker`) on one PostgreSQL database, the load spread over
// the three ports, as docs/operations.md "Running several processes" describes.

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const API_KEY = `ck_test_many${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_many${randomBytes(16).toString('hex')}`;
const AUTH = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET, 'content-type': 'application/json' };
const SUBSCRIPTIONS = 1000;
const DAY_MS = 86_400_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Answer = { status: number; body: Record<string, unknown> };

async function call(port: number, method: string, path: string, body?: unknown, headers = AUTH): Promise<Answer> {
  const res = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text.startsWith('{') ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

async function ok(port: number, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const answer = await call(port, method, path, body);
  assert.ok(answer.status < 300, `${method} ${path} on ${port}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** Runs `items` through `work` with `width` at a time. */
async function inParallel<T>(items: T[], width: number, work: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        await work(items[i] as T, i);
      }
    }),
  );
}

async function scalar(db: pg.Client, text: string, values: unknown[] = []): Promise<number> {
  const { rows } = await db.query(text, values);
  return Number(Object.values(rows[0] ?? { n: 0 })[0]);
}

test('three API processes and two workers on one PostgreSQL database: one payment per checkout, one charge per period with a worker killed, every webhook, revocation everywhere, and an API process killed under load', {
  skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)',
  timeout: 600_000,
}, async (t) => {
  // The merchant's receiver: every delivery verified; counted per webhook-id.
  let secret = '';
  const deliveries = new Map<string, number>();
  const closedDelivered = new Set<string>();
  let badSignatures = 0;
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      try {
        const id = String(req.headers['webhook-id']);
        const event = new Webhook(secret).verify(body, {
          'webhook-id': id,
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }) as { event_type?: string; entity_id?: string; payment_order_id?: string };
        deliveries.set(id, (deliveries.get(id) ?? 0) + 1);
        if (event.event_type === 'PAYMENT_ORDER.CLOSED') {
          closedDelivered.add(String(event.payment_order_id ?? event.entity_id));
        }
        res.end('ok');
      } catch {
        badSignatures++;
        res.statusCode = 400;
        res.end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => receiver.close());
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const databaseUrl = await freshPostgresDatabase('cobro_test_many', (drop) => t.after(drop));
  const env = {
    DATABASE_URL: databaseUrl,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    RATE_LIMIT_PER_SECOND: '1000000',
    AUTH_FAILURES_PER_MINUTE: '1000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_RETRY_DELAYS: '1,1,2,2,3',
    PG_POOL_SIZE: '4',
    LOG_LEVEL: 'warn',
  };
  const db = new pg.Client({ connectionString: databaseUrl });
  // The database is dropped (with force) at the end, possibly before this client has ended.
  db.on('error', () => {});

  // The first API process migrates and creates the merchant; the others start together.
  const serve = () => startCobroProcess(t, env, { args: cobroArgs('cobro', 'serve', '--jobs=off') });
  const work = () =>
    startCobroProcess(t, env, { args: cobroArgs('cobro', 'worker'), ready: 'Cobro worker is running' });
  const first = await serve();
  const [second, third, workerA, workerB] = await Promise.all([serve(), serve(), work(), work()]);
  const apis: CobroProcess[] = [first, second, third];
  const ports = apis.map((api) => api.port);
  const portFor = (i: number) => ports[i % ports.length] as number;
  await db.connect();
  t.after(() => db.end());

  const endpoint = await ok(first.port, 'POST', '/v1/webhook_endpoints', {
    url: receiverUrl,
    event_types: ['PAYMENT_ORDER.CLOSED'],
  });
  secret = String(endpoint.secret);

  // 1. Fifty concurrent pays of one checkout, across the three processes: one payment, one charge.
  const single = await ok(first.port, 'POST', '/v1/checkout_preferences', {
    type: 'PAYMENT',
    origin: 'API',
    amount: 42.5,
    currency: 'USD',
    title: 'One of fifty',
    payment_method_types: ['CARD'],
  });
  const pays = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      call(portFor(i), 'POST', `/v1/test_helpers/checkout_preferences/${single.id}/pay`, {}),
    ),
  );
  const statuses = pays.map((p) => p.status);
  assert.ok(
    statuses.every((s) => s === 201 || s === 409),
    `pays answered ${statuses.join(',')}`,
  );
  assert.equal(
    await scalar(db, `select count(*) from payment_orders where checkout_preference_id = $1 and status = 'CLOSED'`, [
      single.id,
    ]),
    1,
  );
  assert.equal(
    await scalar(
      db,
      `select count(*) from test_card_charges c join payment_orders o on o.id = c.idempotency_key
       where o.checkout_preference_id = $1 and c.result like '%"status":"approved"%'`,
      [single.id],
    ),
    1,
    'the card was charged once',
  );
  const merchantId = String(
    (await db.query('select merchant_id from checkout_preferences where id = $1', [single.id])).rows[0]?.merchant_id,
  );

  // 2. A key revoked through the command line is refused by all three on their next request.
  const run = promisify(execFile);
  const cliEnv = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env };
  const created = JSON.parse(
    (
      await run(
        process.execPath,
        cobroArgs('cobro', 'keys', 'create', '--merchant', merchantId, '--mode', 'test', '--json'),
        { cwd: ROOT, env: cliEnv },
      )
    ).stdout,
  ) as { api_key: string; api_secret: string };
  const other = {
    'x-api-key': created.api_key,
    'x-api-secret': created.api_secret,
    'content-type': 'application/json',
  };
  for (const port of ports) {
    assert.equal((await call(port, 'GET', '/v1/currencies', undefined, other)).status, 200);
  }
  await run(process.execPath, cobroArgs('cobro', 'keys', 'revoke', created.api_key), { cwd: ROOT, env: cliEnv });
  for (const port of ports) {
    assert.equal((await call(port, 'GET', '/v1/currencies', undefined, other)).status, 401, `revoked key on ${port}`);
  }

  // 3. A thousand card subscriptions, made through the three processes, fall due at once.
  const plan = await ok(first.port, 'POST', '/v1/payment_links', {
    title: 'Daily paper',
    amount: 1.5,
    currency: 'USD',
    interval_type: 'DAY',
    interval_count: 12,
  });
  await inParallel(Array.from({ length: SUBSCRIPTIONS }), 16, async (_, i) => {
    const pref = await ok(portFor(i), 'POST', '/v1/checkout_preferences', {
      type: 'SUBSCRIPTION',
      origin: 'API',
      amount: 1.5,
      currency: 'USD',
      title: 'Daily paper',
      payment_link_id: plan.id,
      payment_method_types: ['CARD'],
    });
    const paid = await ok(portFor(i + 1), 'POST', `/v1/test_helpers/checkout_preferences/${pref.id}/pay`, {});
    assert.equal(paid.status, 'CLOSED');
  });
  const renewals = `select count(*) from payment_orders where merchant_id = $1 and period_attempt is not null and status = 'CLOSED'`;
  assert.equal(await scalar(db, renewals, [merchantId]), 0);
  // The merchant's test clock moves a day (what the test helper does, without running the jobs in
  // the API process that answers it): the workers see it within their clock refresh and bill.
  await db.query(
    `insert into test_clocks (merchant_id, offset_ms) values ($1, $2)
     on conflict (merchant_id) do update set offset_ms = excluded.offset_ms`,
    [merchantId, DAY_MS + 3_600_000],
  );
  // One worker is killed part-way through the billing; the other carries on.
  const killAt = Math.round(SUBSCRIPTIONS * 0.3);
  for (let i = 0; i < 6000 && (await scalar(db, renewals, [merchantId])) < killAt; i++) {
    await sleep(10);
  }
  workerA.child.kill('SIGKILL');
  await workerA.exit;
  const killedAt = await scalar(db, renewals, [merchantId]);
  const deadline = Date.now() + 180_000;
  while ((await scalar(db, renewals, [merchantId])) < SUBSCRIPTIONS && Date.now() < deadline) {
    await sleep(250);
  }
  const twice = await db.query(
    `select recurrent_payment_id, period_index, count(*) as n from payment_orders
     where merchant_id = $1 and period_attempt is not null and status = 'CLOSED'
     group by recurrent_payment_id, period_index having count(*) > 1`,
    [merchantId],
  );
  assert.deepEqual(twice.rows, [], 'a period paid twice');
  assert.equal(
    await scalar(db, renewals, [merchantId]),
    SUBSCRIPTIONS,
    `renewals closed (the worker was killed at ${killedAt})`,
  );
  const chargedTwice = await db.query(
    `select o.recurrent_payment_id, o.period_index, count(*) as n from test_card_charges c
     join payment_orders o on o.id = c.idempotency_key
     where o.merchant_id = $1 and o.period_attempt is not null and c.result like '%"status":"approved"%'
     group by o.recurrent_payment_id, o.period_index having count(*) > 1`,
    [merchantId],
  );
  assert.deepEqual(chargedTwice.rows, [], 'a card charged twice for one period');

  // 4. Every CLOSED payment's webhook arrives, signed (the killed worker's leases lapse after a minute).
  const closed = (
    await db.query(`select id from payment_orders where merchant_id = $1 and status = 'CLOSED'`, [merchantId])
  ).rows.map((r: { id: string }) => r.id);
  assert.equal(closed.length, 1 + 2 * SUBSCRIPTIONS);
  const webhooksBy = Date.now() + 120_000;
  while (closed.some((id) => !closedDelivered.has(id)) && Date.now() < webhooksBy) {
    await sleep(500);
  }
  assert.deepEqual(
    closed.filter((id) => !closedDelivered.has(id)),
    [],
    'CLOSED payments without a delivered webhook',
  );
  assert.equal(badSignatures, 0);
  // At least once: a delivery can arrive twice only if the killed worker sent it and died before
  // recording the answer — at most one claim (100 deliveries) of the killed worker.
  const duplicated = [...deliveries.values()].filter((n) => n > 1).length;
  t.diagnostic(
    `renewals: worker killed at ${killedAt} of ${SUBSCRIPTIONS}; webhooks ${deliveries.size}, delivered twice ${duplicated}`,
  );
  assert.ok(duplicated <= 100, `${duplicated} webhooks delivered more than once`);

  // 5. One API process killed under load: the other two keep answering, without an error.
  const errors: string[] = [];
  let answered = 0;
  let loading = true;
  const load = [first, second].flatMap((api) =>
    Array.from({ length: 3 }, async () => {
      while (loading) {
        try {
          const res = await call(api.port, 'GET', `/v1/checkout_preferences/${single.id}`);
          if (res.status === 200) {
            answered++;
          } else {
            errors.push(`${api.port}: ${res.status}`);
          }
        } catch (error) {
          errors.push(`${api.port}: ${(error as Error).message}`);
        }
      }
    }),
  );
  await sleep(1_000);
  third.child.kill('SIGKILL');
  await third.exit;
  await sleep(2_000);
  loading = false;
  await Promise.all(load);
  assert.deepEqual(errors, [], 'errors from the API processes left running');
  assert.ok(answered > 100, `only ${answered} requests answered`);
  assert.equal(workerB.child.exitCode, null, 'the other worker is still running');
});
