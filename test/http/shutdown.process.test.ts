import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { TestContext } from 'node:test';
import { test } from 'node:test';
import SqliteDatabase from 'better-sqlite3';
import type { CobroProcess } from '../support/processes.ts';
import { startCobroProcess, until } from '../support/processes.ts';

// Stopping the service as an operator does (SIGTERM to a real `npm start` process) while
// clients are using it: nothing already sent is lost, and no work is left stranded.

const API_KEY = `ck_test_stop${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_stop${randomBytes(16).toString('hex')}`;
const AUTH = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET };
const CREATE_BODY = JSON.stringify({
  type: 'PAYMENT',
  origin: 'API',
  amount: 16.9,
  currency: 'USD',
  title: 'Tea for two',
});

function startServer(t: TestContext, dbPath: string, env: Record<string, string> = {}): Promise<CobroProcess> {
  return startCobroProcess(t, {
    DATABASE_URL: `sqlite:${dbPath}`,
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    RATE_LIMIT_PER_SECOND: '100000',
    ...env,
  });
}

type Outcome = { sentAt: number; status: number | null; error: string | null };

/** One POST on the agent's keep-alive connections; `sentAt` is when the whole request was handed to the kernel. */
function create(agent: http.Agent, port: number): Promise<Outcome> {
  return new Promise((resolve) => {
    let sentAt = Number.POSITIVE_INFINITY;
    const req = http.request(
      {
        agent,
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/v1/checkout_preferences',
        headers: { ...AUTH, 'content-type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ sentAt, status: res.statusCode ?? null, error: null }));
        res.on('error', (e) => resolve({ sentAt, status: null, error: e.message }));
      },
    );
    req.on('finish', () => {
      sentAt = performance.now();
    });
    req.on('error', (e) => resolve({ sentAt, status: null, error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end(CREATE_BODY);
  });
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (e: NodeJS.ErrnoException) => resolve(e.code === 'ECONNREFUSED'));
  });
}

test('SIGTERM under load: every request sent before the signal is answered, new connections are refused, and the process exits by itself', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-stop-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const server = await startServer(t, join(dir, 'cobro.db'));
  // Half the clients keep their connection, half open a new one per request (as many
  // integrations do): both kinds of connection must see their requests answered.
  const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 25 });
  const oneShot = new http.Agent({ keepAlive: false, maxSockets: 25 });
  t.after(() => {
    keepAlive.destroy();
    oneShot.destroy();
  });

  const outcomes: Outcome[] = [];
  let signalAt = Number.POSITIVE_INFINITY;
  let exited = false;
  void server.exit.then(() => {
    exited = true;
  });
  // Fifty clients, each sending its next request as soon as the last is answered, until one
  // of theirs fails after the signal (the server is gone): more than the server answers at
  // once, so at any moment some requests wait unread in their connections.
  const clients = Array.from({ length: 50 }, async (_, i) => {
    for (;;) {
      const outcome = await create(i % 2 === 0 ? keepAlive : oneShot, server.port);
      outcomes.push(outcome);
      if (outcome.status === null && performance.now() > signalAt) {
        return;
      }
      if (exited) {
        return;
      }
    }
  });
  await until('some load', () => outcomes.length >= 200, 60_000);
  signalAt = performance.now();
  server.child.kill('SIGTERM');

  // While it drains, a new connection is refused (it stops listening first).
  let sawRefusal = false;
  while (!exited && !sawRefusal) {
    sawRefusal = await refused(server.port);
  }
  await Promise.all(clients);
  // Exit code 0: it finished before its own 10 s limit (which exits with 1).
  assert.equal(await server.exit, 0);
  assert.ok(sawRefusal, 'a new connection was refused while the server stopped');

  const before = outcomes.filter((o) => o.sentAt < signalAt);
  assert.ok(before.length >= 200);
  const lost = before.filter((o) => o.status !== 201);
  assert.deepEqual(lost, [], `${lost.length} of ${before.length} requests sent before SIGTERM were not answered 201`);

  // Every one of them is in the database.
  const db = new SqliteDatabase(join(dir, 'cobro.db'), { readonly: true });
  t.after(() => db.close());
  const { n } = db.prepare('select count(*) as n from checkout_preferences').get() as { n: number };
  assert.ok(n >= before.length, `${n} preferences stored, ${before.length} acknowledged before the signal`);
});

test('deliveries claimed but not yet sent when the server stops are handed back, and the next start sends them', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'cobro-stop-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // The receiver holds its first requests unanswered, then answers 200 once told to.
  let answering = false;
  const held: http.ServerResponse[] = [];
  const received = new Set<string>();
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (answering) {
        received.add(String(req.headers['webhook-id']));
        res.end('ok');
      } else {
        held.push(res);
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    for (const res of held) {
      res.destroy();
    }
    receiver.close();
  });
  const receiverPort = (receiver.address() as { port: number }).port;
  const env = {
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    WEBHOOK_MAX_CONCURRENCY: '1',
    // Six held sends in a row would take longer than the 10 s a stop may take.
    WEBHOOK_TIMEOUT_MS: '4000',
    WEBHOOK_RETRY_DELAYS: '1',
  };
  const dbPath = join(dir, 'cobro.db');
  const first = await startServer(t, dbPath, env);
  const base = `http://127.0.0.1:${first.port}`;
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { ...AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    assert.ok(res.status < 300, `${path}: ${res.status} ${text}`);
    return JSON.parse(text) as { id: string };
  };
  await api('/v1/webhook_endpoints', {
    url: `http://127.0.0.1:${receiverPort}/hooks`,
    event_types: ['PAYMENT_ORDER.CLOSED'],
  });
  for (let i = 0; i < 6; i++) {
    const pref = await api('/v1/checkout_preferences', JSON.parse(CREATE_BODY));
    await api(`/v1/test_helpers/checkout_preferences/${pref.id}/pay`, {});
  }
  const db = () => new SqliteDatabase(dbPath, { readonly: true });
  const leasedNow = () => {
    const d = db();
    try {
      return (
        d
          .prepare("select count(*) as n from webhook_deliveries where status = 'PENDING' and locked_until > ?")
          .get(Date.now()) as { n: number }
      ).n;
    } finally {
      d.close();
    }
  };
  // All six claimed by the running server: one is with the receiver (held unanswered), the other
  // five wait for the endpoint's one slot.
  await until('all six claimed, one sent', () => held.length === 1 && leasedNow() === 6, 30_000);

  first.child.kill('SIGTERM');
  assert.equal(await first.exit, 0);
  // Nothing is left leased to the process that is gone: the held attempt was recorded
  // (timed out) and the five unstarted ones were given back.
  assert.equal(leasedNow(), 0);

  answering = true;
  const second = await startServer(t, dbPath, env);
  await until('all six events delivered after the restart', () => received.size === 6, 30_000);
  second.child.kill('SIGTERM');
  assert.equal(await second.exit, 0);
});
