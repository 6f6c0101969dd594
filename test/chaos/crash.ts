import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { cobroArgs } from '../support/dist.ts';

/**
 * The crash test (RELIABILITY.md R3): a load client on 8 connections creates checkout
 * preferences and pays them, each request with an Idempotency-Key, while a nemesis SIGKILLs the
 * server every few seconds and restarts it at once. Every operation ends `ok` (acknowledged),
 * `fail` (a definite refusal) or is retried with the same key after an `unknown` outcome (no
 * answer, a 5xx, a refusal while the key is held). Afterwards everything acknowledged is read
 * back and checked; see {@link CrashReport} for what is measured.
 *
 * Used by test/http/chaos.process.test.ts (a short run inside `npm test`) and by
 * test/chaos/run.ts (`npm run test:chaos`, the long runs).
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export type CrashOptions = {
  /** sqlite:FILE or a postgres:// URL of a database of its own. */
  databaseUrl: string;
  port: number;
  kills: number;
  /** Time between kills, uniformly random in this range, ms. */
  killEveryMs: [number, number];
  connections?: number;
  log?: (line: string) => void;
  /**
   * PostgreSQL: the database server itself, which the nemesis also crashes (`pg_ctl stop -m
   * immediate`) `databaseOutages` times, leaving Cobro running, and starts again 1–3 s later.
   */
  databaseServer?: { crash(): Promise<void>; start(): Promise<void> };
  databaseOutages?: number;
};

export type CrashReport = {
  kills: number;
  operations: { ok: number; fail: number; retriedAfterUnknown: number; unresolved: number };
  /** Acknowledged creates or pays whose object is missing or not in the acknowledged state. */
  lost: string[];
  /** Idempotency keys with more than one object, or preferences with more than one paid order. */
  duplicates: string[];
  /** Answers that contradict what happened (a refused pay whose checkout is paid). */
  wrongAnswers: string[];
  /** A status seen going back to an earlier one in a read. */
  backwards: string[];
  /** `PRAGMA integrity_check` after each kill (SQLite). */
  integrity: string[];
  /** Pays whose retry found the card charge cut by a kill: answered OPENED, as the order is. */
  openedAfterCrash: number;
  /**
   * What became of those orders once the card sync asked the processor about them: closed (the
   * card had been charged), voided (it had not: REJECTED, code canceled), or still OPENED.
   */
  cardRecovery: { closed: number; voided: number; stillOpen: string[] };
  /** Card charges the processor approved whose order is not CLOSED: money taken, no payment. */
  chargedNotPaid: string[];
  /** Acknowledged CLOSED payments with no delivered, correctly signed PAYMENT_ORDER.CLOSED webhook. */
  missingWebhooks: string[];
  /** `PAYMENT_ORDER.CLOSED` webhooks: one expected per CLOSED payment; deliveries seen more than once. */
  webhooks: { expected: number; delivered: number; duplicated: number };
  badSignatures: number;
  /** Answers of 500 and above, by status: a crash or an outage may give 503, never a 500. */
  serverErrors: Record<string, number>;
  /** Idempotency keys a retry could not use after their lock time, with what the retry got. */
  stuckKeys: string[];
  /** Keys left IN_FLIGHT whose retry, after the lock time, was answered with the acknowledged object. */
  lapsedKeysServed: number;
  restartToReadyMs: number[];
  /**
   * Database server outages: what `/ready` answered while the server was down (0: no answer),
   * and how long after it was back Cobro was ready again, by itself.
   */
  outages: { readyWhileDown: number[]; recoveredMs: number }[];
};

const API_KEY = `ck_test_chaos${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_chaos${randomBytes(16).toString('hex')}`;
const AUTH = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET, 'content-type': 'application/json' };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const between = ([lo, hi]: [number, number]) => lo + Math.random() * (hi - lo);

/** Later states rank higher; a read that finds a lower rank than before went backwards. */
const RANK: Record<string, number> = { OPEN: 0, OPENED: 0, PAID: 1, CLOSED: 1, REJECTED: 1, EXPIRED: 1, REFUNDED: 2 };

type Outcome = { kind: 'ok'; status: number; body: Record<string, unknown> } | { kind: 'fail'; status: number };

export async function runCrashTest(options: CrashOptions): Promise<CrashReport> {
  const log = options.log ?? (() => {});
  const base = `http://127.0.0.1:${options.port}`;
  const report: CrashReport = {
    kills: 0,
    operations: { ok: 0, fail: 0, retriedAfterUnknown: 0, unresolved: 0 },
    lost: [],
    duplicates: [],
    wrongAnswers: [],
    backwards: [],
    integrity: [],
    openedAfterCrash: 0,
    cardRecovery: { closed: 0, voided: 0, stillOpen: [] },
    chargedNotPaid: [],
    missingWebhooks: [],
    webhooks: { expected: 0, delivered: 0, duplicated: 0 },
    badSignatures: 0,
    serverErrors: {},
    stuckKeys: [],
    lapsedKeysServed: 0,
    restartToReadyMs: [],
    outages: [],
  };

  // The merchant's webhook receiver: every delivery verified against the endpoint's secret.
  let secret = '';
  const closedDelivered = new Set<string>();
  const deliveriesById = new Map<string, number>();
  const receiver = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      try {
        const event = new Webhook(secret).verify(body, {
          'webhook-id': String(req.headers['webhook-id']),
          'webhook-timestamp': String(req.headers['webhook-timestamp']),
          'webhook-signature': String(req.headers['webhook-signature']),
        }) as { event_type?: string; entity_id?: string; payment_order_id?: string };
        if (event.event_type === 'PAYMENT_ORDER.CLOSED') {
          closedDelivered.add(String(event.payment_order_id ?? event.entity_id));
        }
        const id = String(req.headers['webhook-id']);
        deliveriesById.set(id, (deliveriesById.get(id) ?? 0) + 1);
        res.end('ok');
      } catch {
        report.badSignatures++;
        res.statusCode = 400;
        res.end('bad signature');
      }
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`;

  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    DATABASE_URL: options.databaseUrl,
    SECRETS_KEY: randomBytes(32).toString('base64'),
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    RATE_LIMIT_PER_SECOND: '1000000',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // The retry window, scaled down: seconds instead of days.
    WEBHOOK_RETRY_DELAYS: '1,1,2,2,3,3,5',
    // A card charge cut by a kill is asked about after 5 s instead of a minute.
    CARD_RECOVERY_AFTER_SECONDS: '5',
    LOG_LEVEL: 'warn',
  };

  let server: ChildProcess | null = null;
  let serverStderr = '';
  /** A server the nemesis did not kill has exited: the run stops here and says how. */
  const assertServerAlive = (when: string): void => {
    if (server && (server.exitCode !== null || server.signalCode !== null)) {
      throw new Error(
        `Cobro exited by itself ${when} (code ${server.exitCode}, signal ${server.signalCode}):\n${serverStderr}`,
      );
    }
  };
  const spawnServer = (): ChildProcess => {
    serverStderr = '';
    const child = spawn(process.execPath, cobroArgs('serve'), { cwd: ROOT, env, stdio: ['ignore', 'ignore', 'pipe'] });
    server = child;
    // The end of what it printed to stderr, for a server that dies by itself (a crash of ours).
    child.stderr?.on('data', (chunk: Buffer) => {
      serverStderr = (serverStderr + chunk.toString('utf8')).slice(-4_000);
    });
    return child;
  };
  const start = async (): Promise<void> => {
    const began = performance.now();
    let child = spawnServer();
    // Every restart takes the same port back, which another test process's short-lived listener
    // or connection may hold for a moment: that start is tried again, up to a hundred times.
    let portTries = 0;
    for (;;) {
      if (child.exitCode !== null) {
        // What it printed may still be on its way: read it all before looking at it.
        const exited = child;
        await Promise.race([
          new Promise((resolve) =>
            exited.stderr?.readableEnded ? resolve(null) : exited.stderr?.once('end', resolve),
          ),
          sleep(1_000),
        ]);
        if (/EADDRINUSE/.test(serverStderr) && ++portTries < 100) {
          await sleep(100);
          child = spawnServer();
          continue;
        }
        throw new Error(`the server exited at start with code ${child.exitCode}:\n${serverStderr}`);
      }
      try {
        if ((await fetch(`${base}/ready`)).status === 200) {
          report.restartToReadyMs.push(performance.now() - began);
          return;
        }
      } catch {
        // Not listening yet.
      }
      await sleep(20);
    }
  };
  const kill = async (): Promise<void> => {
    const child = server;
    if (!child) {
      return;
    }
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    server = null;
  };
  let ready = Promise.resolve();

  const call = async (method: string, path: string, body?: unknown, key?: string): Promise<Response> =>
    fetch(`${base}${path}`, {
      method,
      headers: key ? { ...AUTH, 'idempotency-key': key } : AUTH,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(10_000),
    });

  /**
   * One operation to a definite outcome: retried with the same key while the outcome is
   * unknown (no answer, 5xx, or 409 while the first attempt still holds the key).
   */
  /** Every acknowledged POST by its key: what was sent, and the id of the object answered. */
  const acknowledged = new Map<string, { path: string; body: unknown; id: string }>();
  const settle = async (path: string, body: unknown, key: string, stop: () => boolean): Promise<Outcome | null> => {
    let unknown = false;
    for (;;) {
      if (unknown && stop()) {
        return null;
      }
      await ready;
      let res: Response;
      try {
        res = await call('POST', path, body, key);
      } catch {
        unknown = true;
        await sleep(50);
        continue;
      }
      const text = await res.text();
      if (res.status >= 200 && res.status < 300) {
        if (unknown) {
          report.operations.retriedAfterUnknown++;
        }
        const answer = JSON.parse(text) as Record<string, unknown>;
        acknowledged.set(key, { path, body, id: String(answer.id) });
        return { kind: 'ok', status: res.status, body: answer };
      }
      const inFlight = res.status === 409 && /still being processed/.test(text);
      if (res.status >= 500) {
        report.serverErrors[res.status] = (report.serverErrors[res.status] ?? 0) + 1;
      }
      if (res.status >= 500 || inFlight) {
        unknown = true;
        await sleep(inFlight ? 250 : 50);
        continue;
      }
      return { kind: 'fail', status: res.status };
    }
  };

  await start();
  const endpoint = await call('POST', '/v1/webhook_endpoints', { url: receiverUrl });
  secret = String(((await endpoint.json()) as { secret: string }).secret);

  const created = new Map<string, { id: string; amount: number }>();
  /** Acknowledged pays: checkout id → the order and the status the answer gave. */
  const paid = new Map<string, { orderId: string; status: string }>();
  /** Pays answered with a refusal: their checkout must not be paid. */
  const refusedPays = new Map<string, number>();
  const lastSeen = new Map<string, string>();
  let loading = true;
  let draining = false;

  const client = async (): Promise<void> => {
    while (loading) {
      const key = randomUUID();
      // Cents as an integer; the amount sent is their exact decimal (no float sum to drift).
      const cents = 100 + Math.floor(Math.random() * 10_000);
      const amount = cents / 100;
      const pref = await settle(
        '/v1/checkout_preferences',
        { type: 'PAYMENT', origin: 'API', amount, currency: 'USD', title: 'Chaos', external_id: key },
        `create-${key}`,
        () => draining,
      );
      if (pref === null) {
        report.operations.unresolved++;
        return;
      }
      if (pref.kind === 'fail') {
        report.operations.fail++;
        continue;
      }
      report.operations.ok++;
      const prefId = String(pref.body.id);
      created.set(key, { id: prefId, amount });
      const order = await settle(
        `/v1/test_helpers/checkout_preferences/${prefId}/pay`,
        { payment_method_id: null },
        `pay-${key}`,
        () => draining,
      );
      if (order === null) {
        report.operations.unresolved++;
        return;
      }
      if (order.kind === 'fail') {
        report.operations.fail++;
        refusedPays.set(prefId, order.status);
        continue;
      }
      report.operations.ok++;
      paid.set(prefId, { orderId: String(order.body.id), status: String(order.body.status) });
    }
  };

  // A reader that remembers the last status it saw of each object: no read may go back.
  const reader = async (): Promise<void> => {
    while (loading) {
      const prefs = [...paid.entries()];
      const pick = prefs[Math.floor(Math.random() * prefs.length)];
      if (!pick) {
        await sleep(50);
        continue;
      }
      const [prefId, { orderId }] = pick;
      for (const path of [`/v1/checkout_preferences/${prefId}`, `/v1/payment_orders/${orderId}`]) {
        try {
          await ready;
          const res = await call('GET', path);
          if (res.status >= 500) {
            report.serverErrors[res.status] = (report.serverErrors[res.status] ?? 0) + 1;
          }
          if (res.status !== 200) {
            continue;
          }
          const status = String(((await res.json()) as { status: string }).status);
          const before = lastSeen.get(path);
          if (before !== undefined && (RANK[status] ?? 0) < (RANK[before] ?? 0)) {
            report.backwards.push(`${path}: ${before} then ${status}`);
          }
          lastSeen.set(path, status);
        } catch {
          // The server is down; the next read comes after the restart.
        }
      }
    }
  };

  const connections = options.connections ?? 8;
  const load = [...Array.from({ length: connections - 1 }, client), reader()];

  /** The database server dies and comes back; Cobro keeps running through it. */
  const outage = async (server: NonNullable<CrashOptions['databaseServer']>): Promise<void> => {
    await server.crash();
    const seen = new Set<number>();
    const downUntil = Date.now() + between([1_000, 3_000]);
    while (Date.now() < downUntil) {
      assertServerAlive('while the database was down');
      try {
        const res = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(2_000) });
        await res.arrayBuffer();
        seen.add(res.status);
      } catch {
        seen.add(0);
      }
      await sleep(100);
    }
    await server.start();
    const back = performance.now();
    for (;;) {
      assertServerAlive('after the database came back');
      const res = await fetch(`${base}/ready`).catch(() => null);
      await res?.arrayBuffer();
      if (res?.status === 200) {
        break;
      }
      if (performance.now() - back > 60_000) {
        throw new Error('Cobro was not ready a minute after the database came back');
      }
      await sleep(20);
    }
    report.outages.push({ readyWhileDown: [...seen].sort(), recoveredMs: Math.round(performance.now() - back) });
    log(
      `database outage ${report.outages.length}: /ready said ${[...seen].join(',')}; ready again after the database in ${report.outages.at(-1)?.recoveredMs} ms`,
    );
  };

  // The nemesis: kills, and database outages spread among them.
  const outages = options.databaseServer ? (options.databaseOutages ?? 0) : 0;
  // A nemesis that fails (the server would not come back) stops the load and the server with it:
  // left running, the clients would retry against a dead port for ever.
  const stopEverything = async (error: unknown): Promise<never> => {
    loading = false;
    draining = true;
    await kill().catch(() => undefined);
    throw error;
  };
  while (report.kills < options.kills || report.outages.length < outages) {
    await sleep(between(options.killEveryMs));
    const left = { kills: options.kills - report.kills, outages: outages - report.outages.length };
    if (options.databaseServer && left.outages > 0 && Math.random() < left.outages / (left.kills + left.outages)) {
      await outage(options.databaseServer).catch(stopEverything);
      continue;
    }
    try {
      assertServerAlive('under load');
    } catch (error) {
      await stopEverything(error);
    }
    let resume: () => void = () => {};
    ready = new Promise<void>((resolve) => {
      resume = resolve;
    });
    await kill().catch(stopEverything);
    report.kills++;
    if (options.databaseUrl.startsWith('sqlite:')) {
      const db = new SqliteDatabase(options.databaseUrl.slice('sqlite:'.length));
      report.integrity.push(String(db.pragma('integrity_check', { simple: true })));
      db.close();
    }
    await start().catch(stopEverything);
    resume();
    log(
      `kill ${report.kills}: ${report.operations.ok} acknowledged, ready in ${Math.round(report.restartToReadyMs.at(-1) ?? 0)} ms`,
    );
  }
  loading = false;
  // Let operations in progress settle, then give the webhooks their (scaled) retry window.
  const settleBy = Date.now() + 60_000;
  const drained = Promise.all(load);
  while (
    Date.now() < settleBy &&
    (await Promise.race([drained.then(() => true), sleep(500).then(() => false)])) === false
  ) {
    // waiting
  }
  draining = true;
  await drained;

  // Everything acknowledged is there, in the acknowledged state.
  for (const [key, { id, amount }] of created) {
    const res = await call('GET', `/v1/checkout_preferences/${id}`);
    const body = res.status === 200 ? ((await res.json()) as { amount: number; external_id: string }) : null;
    if (!body || body.external_id !== key || Math.round(Number(body.amount) * 100) !== Math.round(amount * 100)) {
      report.lost.push(`checkout ${id} (${res.status})`);
    }
  }
  for (const [prefId, { orderId, status: acked }] of paid) {
    const order = await call('GET', `/v1/payment_orders/${orderId}`);
    const pref = await call('GET', `/v1/checkout_preferences/${prefId}`);
    const orderStatus = order.status === 200 ? ((await order.json()) as { status: string }).status : order.status;
    const prefStatus = pref.status === 200 ? ((await pref.json()) as { status: string }).status : pref.status;
    if (
      acked === 'CLOSED'
        ? orderStatus !== 'CLOSED' || prefStatus !== 'PAID'
        : orderStatus !== acked && (RANK[String(orderStatus)] ?? -1) <= (RANK[acked] ?? 0)
    ) {
      report.lost.push(`payment ${orderId} acknowledged ${acked}: order ${orderStatus}, checkout ${prefStatus}`);
    }
    if (acked === 'OPENED') {
      // A card charge cut by a kill: the retry answers the order as it is (OPENED), never charges again.
      report.openedAfterCrash++;
    }
  }
  for (const [prefId, status] of refusedPays) {
    const pref = await call('GET', `/v1/checkout_preferences/${prefId}`);
    const prefStatus = pref.status === 200 ? ((await pref.json()) as { status: string }).status : pref.status;
    if (prefStatus === 'PAID') {
      report.wrongAnswers.push(`pay of ${prefId} answered ${status}, but the checkout is PAID`);
    }
  }
  // Card charges cut by a kill: the card sync settles each from the processor's record.
  const recoverBy = Date.now() + 30_000;
  const cut = [...paid.values()].filter((p) => p.status === 'OPENED').map((p) => p.orderId);
  const recovered = new Map<string, string>();
  while (recovered.size < cut.length && Date.now() < recoverBy) {
    for (const id of cut.filter((c) => !recovered.has(c))) {
      const res = await call('GET', `/v1/payment_orders/${id}`);
      const status = res.status === 200 ? ((await res.json()) as { status: string }).status : 'OPENED';
      if (status !== 'OPENED') {
        recovered.set(id, status);
      }
    }
    await sleep(500);
  }
  report.cardRecovery = {
    closed: [...recovered.values()].filter((s) => s === 'CLOSED').length,
    voided: [...recovered.values()].filter((s) => s === 'REJECTED').length,
    stillOpen: cut.filter((id) => !recovered.has(id)),
  };

  const webhooksBy = Date.now() + 30_000;
  const closedOrders = [
    ...[...paid.values()].filter((p) => p.status === 'CLOSED').map((p) => p.orderId),
    ...[...recovered].filter(([, status]) => status === 'CLOSED').map(([id]) => id),
  ];
  while (Date.now() < webhooksBy && closedOrders.some((id) => !closedDelivered.has(id))) {
    await sleep(250);
  }
  report.missingWebhooks = closedOrders.filter((id) => !closedDelivered.has(id));
  report.webhooks = {
    expected: closedOrders.length,
    delivered: closedOrders.filter((id) => closedDelivered.has(id)).length,
    duplicated: [...deliveriesById.values()].filter((n) => n > 1).length,
  };

  // Every operation has settled by now. A key can still be IN_FLIGHT when its answer went out but
  // storing it failed (the database died in between): its lock lapses, and then a retry must be
  // served, from the object made. A key a retry cannot use after its lock time is stuck. Asked
  // while Cobro still runs: retried after the kill below, every such key looked stuck ("no
  // answer"), which failed the PostgreSQL run whenever an outage left one behind.
  const inFlight = await query(options.databaseUrl, [
    `select key as what from idempotency_keys where state = 'IN_FLIGHT'`,
  ]);
  for (const key of inFlight) {
    const sent = acknowledged.get(key);
    if (!sent) {
      report.stuckKeys.push(`${key}: never acknowledged`);
      continue;
    }
    // Retried as a client would: past the key's lock (read from the database, as a later retry
    // may have extended it), and again while the answer is "still being processed".
    let outcome = '';
    for (let attempt = 0; attempt < 4; attempt++) {
      const [until] = await query(options.databaseUrl, [
        `select locked_until as what from idempotency_keys where key = '${key.replaceAll("'", "''")}'`,
      ]);
      const lockedUntil = Number(until);
      const wait = Number.isFinite(lockedUntil) ? lockedUntil - Date.now() : 0;
      await sleep(Math.max(0, Math.min(wait, 60_000)) + 1_000);
      const res = await call('POST', sent.path, sent.body, key).catch(() => null);
      const text = res ? await res.text() : 'no answer';
      const answer = res && res.status < 300 ? (JSON.parse(text) as { id?: string }) : null;
      if (answer?.id === sent.id) {
        outcome = 'served';
        break;
      }
      outcome = `answered ${res?.status ?? 'nothing'}: ${text.slice(0, 160)}`;
      if (!(res?.status === 409 && /still being processed/.test(text))) {
        break;
      }
    }
    if (outcome === 'served') {
      report.lapsedKeysServed++;
    } else {
      // What the database's sessions were doing then: a retry that gets no answer at all is
      // waiting on something (a lock, a connection), and this says on what.
      const sessions = options.databaseUrl.startsWith('postgres')
        ? await query(options.databaseUrl, [
            `select concat_ws(' | ', pid, state, wait_event_type, wait_event, round(extract(epoch from now() - xact_start))::text || ' s in transaction', left(regexp_replace(query, 's+', ' ', 'g'), 120)) as what from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`,
          ]).catch((error: unknown) => [`(could not read pg_stat_activity: ${String(error)})`])
        : [];
      report.stuckKeys.push(
        `${key} (acknowledged ${sent.id}) ${outcome}; sessions: ${sessions.join(' ;; ') || 'none'}`,
      );
      assertServerAlive('while its idempotency keys were retried');
    }
  }
  // Read the database itself: one object per key, one paid order per checkout, no stuck key.
  await kill();
  const rows = await query(options.databaseUrl, [
    `select 'key ' || external_id as what from checkout_preferences where external_id is not null group by external_id having count(*) > 1`,
    `select 'paid twice ' || checkout_preference_id as what from payment_orders where status = 'CLOSED' group by checkout_preference_id having count(*) > 1`,
  ]);
  report.duplicates = rows;
  // The processor's records (test mode's, kept in tables of their own) against ours.
  report.chargedNotPaid = await query(options.databaseUrl, [
    `select 'charged, order ' || o.id || ' ' || o.status as what from test_card_charges c join payment_orders o on o.id = c.idempotency_key where c.result like '%"status":"approved"%' and o.status <> 'CLOSED'`,
  ]);
  receiver.close();
  return report;
}

async function query(databaseUrl: string, statements: string[]): Promise<string[]> {
  const out: string[] = [];
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new SqliteDatabase(databaseUrl.slice('sqlite:'.length));
    for (const s of statements) {
      out.push(...(db.prepare(s).all() as { what: unknown }[]).map((r) => String(r.what)));
    }
    db.close();
    return out;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  for (const s of statements) {
    out.push(...(await client.query(s)).rows.map((r: { what: unknown }) => String(r.what)));
  }
  await client.end();
  return out;
}

/** The p99 of a list of durations. */
export function p99(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)] ?? 0;
}
