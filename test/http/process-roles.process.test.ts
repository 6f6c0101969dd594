import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { test } from 'node:test';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { cobroArgs } from '../support/dist.ts';
import { freshPostgresDatabase, startCobroProcess, until } from '../support/processes.ts';

// The process roles an operator runs on PostgreSQL: `cobro serve --jobs=off` answers the API and
// runs no job; `cobro worker` runs the jobs and serves nothing. Real processes on one database.

const API_KEY = `ck_test_roles${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_roles${randomBytes(16).toString('hex')}`;
const AUTH = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET };

test('an API process with its jobs off and a worker share one PostgreSQL database: the API answers, only the worker delivers the webhook', {
  skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)',
}, async (t) => {
  const received: { id: string; body: string; headers: http.IncomingHttpHeaders }[] = [];
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      received.push({ id: String(req.headers['webhook-id']), body, headers: req.headers });
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => receiver.close());
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const env = {
    DATABASE_URL: await freshPostgresDatabase('cobro_test_roles', (drop) => t.after(drop)),
    // Several processes on one database share the key that seals webhook secrets.
    SECRETS_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const api = await startCobroProcess(t, env, {
    args: cobroArgs('cobro', 'serve', '--jobs=off'),
    ready: 'Cobro is serving',
  });
  assert.match(api.stdout(), /jobs off/);
  const call = async (path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${api.port}${path}`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.status < 300, `${path}: ${res.status} ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  };
  const endpoint = await call('/v1/webhook_endpoints', { url: receiverUrl, event_types: ['PAYMENT_ORDER.CLOSED'] });
  const pref = await call('/v1/checkout_preferences', {
    type: 'PAYMENT',
    origin: 'API',
    amount: 10,
    currency: 'USD',
    title: 'Tea',
  });
  const order = await call(`/v1/test_helpers/checkout_preferences/${pref.id}/pay`, {});
  assert.equal(order.status, 'CLOSED');

  // The API process runs no job: the delivery waits, unclaimed, with no attempt.
  const db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  const pending = await db.query(
    "select attempts, locked_until from webhook_deliveries where status = 'PENDING' and endpoint_id = $1",
    [endpoint.id],
  );
  assert.equal(pending.rowCount, 1);
  assert.deepEqual(
    { attempts: Number(pending.rows[0].attempts), locked: pending.rows[0].locked_until },
    { attempts: 0, locked: null },
  );
  assert.equal(received.length, 0);
  await db.end();

  // The worker sends it, signed with the endpoint's secret.
  const worker = await startCobroProcess(t, env, {
    args: cobroArgs('cobro', 'worker'),
    ready: 'Cobro worker is running the jobs',
  });
  await until('the worker to deliver the event', () => received.length === 1, 30_000);
  const [delivery] = received;
  const verified = new Webhook(String(endpoint.secret)).verify(
    delivery?.body ?? '',
    delivery?.headers as Record<string, string>,
  ) as { event_type?: string; payment_order_id?: string };
  assert.deepEqual(
    { type: verified.event_type, order: verified.payment_order_id },
    { type: 'PAYMENT_ORDER.CLOSED', order: order.id },
  );

  worker.child.kill('SIGTERM');
  api.child.kill('SIGTERM');
  assert.equal(await worker.exit, 0);
  assert.equal(await api.exit, 0);
});
