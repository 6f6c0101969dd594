/**
 * `npm run bench`: Cobro's throughput and latency next to a bare node:http server measured in
 * the same sitting, on loopback only. The servers run pinned to CPU 0, this process (the
 * autocannon load generator) to CPU 1, when `taskset` exists (RELIABILITY.md §2.0).
 *
 * Env: BENCH_SECONDS (measured seconds per target, default 10), BENCH_WARMUP_SECONDS
 * (default 3), BENCH_PG=0 to skip PostgreSQL, BENCH_PG_URL for its server (default the local one
 * over TCP), BENCH_STRICT=1 to exit 1 when a target is missed
 * (a non-2xx answer or a connection error always exits 1: the figures would be meaningless),
 * BENCH_ONLY=dashboard, load, renewals or profile to measure only that section (bench/dashboard.ts,
 * bench/load.ts, bench/renewals.ts, bench/profile.ts), BENCH_ONLY=webhooks to print the webhook
 * drain row alone (bench/webhook-drain.ts; RESULTS.md untouched), BENCH_DASHBOARD=0, BENCH_LOAD=0 (about three
 * minutes per database) or BENCH_RENEWALS=0 to leave a section out of a full run (it keeps its
 * last figures), BENCH_RENEWALS=N for N subscriptions due at once instead of 10,000.
 */
import type { ChildProcess } from 'node:child_process';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { cobroArgs } from '../test/support/dist.ts';
import type { DashboardRow } from './dashboard.ts';
import { benchDashboard, renderDashboardTable } from './dashboard.ts';
import type { LoadReport } from './load.ts';
import { benchLoad, LOAD_END, LOAD_START, loadBroken, renderLoadSection } from './load.ts';
import type { Profile } from './profile.ts';
import {
  PROFILES_END,
  PROFILES_START,
  readProfile,
  readStatements,
  renderProfilesSection,
  topFrames,
} from './profile.ts';
import type { RenewalsRow } from './renewals.ts';
import { benchRenewals, RENEWALS_END, RENEWALS_START, renderRenewalsSection } from './renewals.ts';
import { benchWebhookDrain } from './webhook-drain.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CONNECTIONS = 50;
const PREFERENCES = 500;
const MEASURED_SECONDS = positiveInteger('BENCH_SECONDS', 10);
const WARMUP_SECONDS = positiveInteger('BENCH_WARMUP_SECONDS', 3);
const READY_TIMEOUT_MS = 60_000;
// BENCH_PG_URL: another server or way in, e.g. the local server's Unix socket,
// postgres://postgres@%2Fvar%2Frun%2Fpostgresql/postgres (each run makes a database of its own there).
const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// Shapes accepted by src/config/config.ts; fresh per run so nothing depends on an old database.
const API_KEY = `ck_test_bench${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_bench${randomBytes(16).toString('hex')}`;
const AUTH_HEADERS = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET };
const PAYMENT_BODY = JSON.stringify({
  type: 'PAYMENT',
  origin: 'API',
  amount: 16.9,
  currency: 'USD',
  title: 'Bench tea for two',
});

type Backend = 'bare' | 'calibration' | 'sqlite' | 'postgres';

type Measurement = {
  target: string;
  backend: Backend;
  rps: number;
  /** CPU time of the server process per answered request (µs): unlike req/s, barely moved by other load on the machine. */
  cpuUs: number | null;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  requests: number;
};

type Goal = { minRatio?: number; minRps?: number; maxP99?: number; label: string };

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === '') {
    return fallback;
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 600) {
    throw new Error(`${name} must be an integer from 1 to 600, got "${raw}"`);
  }
  return n;
}

function hasCommand(command: string, args: string[]): boolean {
  const result = spawnSync(command, args, { stdio: 'ignore' });
  return result.error === undefined && result.status === 0;
}

const TASKSET = hasCommand('taskset', ['-V']);

/** Pins this process (every thread: autocannon, libuv pool) to CPU 1, away from the server on CPU 0. */
function pinSelf(): boolean {
  return TASKSET && hasCommand('taskset', ['-a', '-cp', '1', String(process.pid)]);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

const children = new Set<ChildProcess>();

// A benchmark that dies half-way must not leave servers behind holding CPU 0.
process.on('exit', () => {
  for (const child of children) {
    child.kill('SIGKILL');
  }
});

type Server = { child: ChildProcess; url: string; stderr: () => string };

/**
 * Only what a process needs to run: a setting left in the caller's environment (SQLITE_SYNCHRONOUS,
 * LOG_LEVEL…) must not turn the measured server into something other than the default one.
 */
function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'TZ']) {
    const value = process.env[name];
    if (value !== undefined) {
      env[name] = value;
    }
  }
  return env;
}

function startServer(args: string[], env: Record<string, string>, stdoutFile: string | null): Promise<Server> {
  return freePort().then((port) => {
    const nodeArgs = [...args];
    const command = TASKSET ? 'taskset' : process.execPath;
    const commandArgs = TASKSET ? ['-c', '0', process.execPath, ...nodeArgs] : nodeArgs;
    const out = stdoutFile === null ? 'ignore' : openSync(stdoutFile, 'a');
    const child = spawn(command, commandArgs, {
      cwd: ROOT,
      env: { ...baseEnv(), ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', out, 'pipe'],
    });
    if (typeof out === 'number') {
      closeSync(out);
    }
    children.add(child);
    child.once('exit', () => children.delete(child));
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      // Bounded: only the start of a failure matters.
      if (stderr.length < 20_000) {
        stderr += chunk.toString('utf8');
      }
    });
    return { child, url: `http://127.0.0.1:${port}`, stderr: () => stderr };
  });
}

async function waitReady(server: Server, path: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null) {
      throw new Error(`server exited with ${server.child.exitCode} before ready:\n${server.stderr()}`);
    }
    try {
      const res = await fetch(`${server.url}${path}`);
      await res.arrayBuffer();
      if (res.ok) {
        return;
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server not ready on ${server.url}${path} after ${READY_TIMEOUT_MS} ms:\n${server.stderr()}`);
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) {
    return;
  }
  const exited = new Promise<void>((resolve) => server.child.once('exit', () => resolve()));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({ connections: CONNECTIONS, timeout: 10, ...options });
}

/** User + system CPU time of a process so far, in µs (Linux /proc; null elsewhere). */
function cpuTimeUs(pid: number | undefined): number | null {
  if (pid === undefined) {
    return null;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself contain spaces: utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    // USER_HZ is 100 on Linux.
    return Number.isFinite(ticks) ? ticks * 10_000 : null;
  } catch {
    return null;
  }
}

/** A short unmeasured run first (JIT, caches, SQLite pages), then the measured one. */
async function measure(
  target: string,
  backend: Backend,
  server: Server,
  options: autocannon.Options,
  /** A status every answer must have instead of a 2xx (a 304 row). */
  expectedStatus?: number,
): Promise<Measurement> {
  process.stdout.write(`  ${backend.padEnd(8)} ${target} … `);
  await cannon({ ...options, duration: WARMUP_SECONDS });
  const cpuBefore = cpuTimeUs(server.child.pid);
  const r = await cannon({ ...options, duration: MEASURED_SECONDS });
  const cpuAfter = cpuTimeUs(server.child.pid);
  const m: Measurement = {
    target,
    backend,
    rps: r.requests.total / r.duration,
    cpuUs:
      cpuBefore !== null && cpuAfter !== null && r.requests.total > 0
        ? (cpuAfter - cpuBefore) / r.requests.total
        : null,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx:
      expectedStatus === undefined
        ? r.non2xx
        : r.requests.total -
          ((r.statusCodeStats as Record<string, { count?: number }>)[String(expectedStatus)]?.count ?? 0),
    errors: r.errors,
    timeouts: r.timeouts,
    requests: r.requests.total,
  };
  const statuses = Object.entries(r.statusCodeStats ?? {})
    .map(([code, stat]) => `${code}×${stat.count ?? 0}`)
    .join(' ');
  const cpu = m.cpuUs === null ? '' : `, ${m.cpuUs.toFixed(1)} µs CPU/request`;
  process.stdout.write(`${Math.round(m.rps)} req/s, p99 ${m.p99} ms${cpu} (${statuses})\n`);
  return m;
}

async function createPreferences(url: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  // A few at a time: enough to be quick, few enough to stay far from any limit.
  const workers = Array.from({ length: 8 }, async () => {
    while (ids.length < count) {
      const res = await fetch(`${url}/v1/checkout_preferences`, {
        method: 'POST',
        headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
        body: PAYMENT_BODY,
      });
      const body = (await res.json()) as { id?: unknown };
      if (res.status !== 201 || typeof body.id !== 'string') {
        throw new Error(`creating a preference answered ${res.status}: ${JSON.stringify(body)}`);
      }
      ids.push(body.id);
    }
  });
  await Promise.all(workers);
  return ids.slice(0, count);
}

async function benchCobro(backend: 'sqlite' | 'postgres', databaseUrl: string, dir: string): Promise<Measurement[]> {
  const logFile = join(dir, `cobro-${backend}.log`);
  const server = await startServer(
    cobroArgs('serve'),
    {
      DATABASE_URL: databaseUrl,
      BOOTSTRAP_API_KEY: API_KEY,
      BOOTSTRAP_API_SECRET: API_SECRET,
      RATE_LIMIT_PER_SECOND: '1000000',
      LOG_LEVEL: 'info',
      // The webhook receivers below listen on loopback.
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    },
    logFile,
  );
  const results: Measurement[] = [];
  try {
    await waitReady(server, '/ready');
    const ids = await createPreferences(server.url, PREFERENCES);
    results.push(
      await measure('POST /v1/checkout_preferences', backend, server, {
        url: `${server.url}/v1/checkout_preferences`,
        method: 'POST',
        headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
        body: PAYMENT_BODY,
      }),
    );
    let next = 0;
    results.push(
      await measure('GET /v1/checkout_preferences/{id}', backend, server, {
        url: server.url,
        requests: [
          {
            method: 'GET',
            headers: AUTH_HEADERS,
            // Round robin over the ids created above, so reads are spread over many rows.
            setupRequest: (request) => {
              const id = ids[next++ % ids.length] ?? '';
              return { ...request, path: `/v1/checkout_preferences/${id}` };
            },
          },
        ],
      }),
    );
    results.push(
      await measure('GET /v1/payment_methods', backend, server, {
        url: `${server.url}/v1/payment_methods`,
        method: 'GET',
        headers: AUTH_HEADERS,
      }),
    );
    // A client that kept the catalogue asks whether it changed: 304, no body.
    const etag = (await fetch(`${server.url}/v1/payment_methods`, { headers: AUTH_HEADERS })).headers.get('etag') ?? '';
    results.push(
      await measure(
        'GET /v1/payment_methods with If-None-Match (304)',
        backend,
        server,
        { url: `${server.url}/v1/payment_methods`, method: 'GET', headers: { ...AUTH_HEADERS, 'if-none-match': etag } },
        304,
      ),
    );
    if (backend === 'sqlite') {
      results.push(...(await benchPaymentsAndWebhooks(server)));
    }
  } finally {
    await stopServer(server);
  }
  // G13: the secret must never reach the log, even under load.
  if (readFileSync(logFile, 'utf8').includes(API_SECRET)) {
    throw new Error(`the API secret appears in ${logFile}`);
  }
  return results;
}

/** What one pay-path sequence carries from request to request. */
type PathContext = { pref?: string; order?: string };

/** A loopback webhook receiver: how many requests it got, and when (performance.now()) the first and the last ended. */
export type Receiver = {
  url: string;
  count: () => number;
  firstAt: () => number;
  lastAt: () => number;
  close: () => Promise<void>;
};

/** A loopback webhook receiver that answers 200 at once, or never (`hang`). */
async function startReceiver(mode: 'ok' | 'hang'): Promise<Receiver> {
  let received = 0;
  let firstAt = 0;
  let lastAt = 0;
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      lastAt = performance.now();
      firstAt ||= lastAt;
      if (mode === 'ok') {
        res.writeHead(200).end();
      }
    });
  });
  server.on('connection', (c) => {
    sockets.add(c);
    c.on('close', () => sockets.delete(c));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => received,
    firstAt: () => firstAt,
    lastAt: () => lastAt,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of sockets) {
          c.destroy();
        }
        server.close(() => resolve());
      }),
  };
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...AUTH_HEADERS, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  }
  return json;
}

/** One create → pay (approving test card) → read sequence per autocannon connection loop. */
function payPathOptions(url: string): autocannon.Options {
  return {
    url,
    requests: [
      {
        method: 'POST',
        path: '/v1/checkout_preferences',
        headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
        body: PAYMENT_BODY,
        onResponse: (_status, body, context) => {
          (context as PathContext).pref = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        method: 'POST',
        headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
        body: '{"outcome":"APPROVED"}',
        setupRequest: (request, context) => ({
          ...request,
          path: `/v1/test_helpers/checkout_preferences/${(context as PathContext).pref}/pay`,
        }),
        onResponse: (_status, body, context) => {
          (context as PathContext).order = (JSON.parse(body) as { id: string }).id;
        },
      },
      {
        method: 'GET',
        headers: AUTH_HEADERS,
        setupRequest: (request, context) => ({
          ...request,
          path: `/v1/payment_orders/${(context as PathContext).order}`,
        }),
      },
    ],
  };
}

/**
 * The full pay path (create → pay with an approving test card → read the order, each sequence
 * counted once), webhook events delivered per second to a receiver answering 200, and the
 * create throughput while another receiver hangs on every delivery.
 */
async function benchPaymentsAndWebhooks(server: Server): Promise<Measurement[]> {
  const results: Measurement[] = [];
  const ok = await startReceiver('ok');
  const hang = await startReceiver('hang');
  try {
    const endpoint = await api(server.url, 'POST', '/v1/webhook_endpoints', { url: ok.url });
    const before = ok.count();
    const started = performance.now();
    const path = await measure(
      'pay path (create → pay → read), per path',
      'sqlite',
      server,
      payPathOptions(server.url),
    );
    // Three requests make one path.
    results.push({ ...path, rps: path.rps / 3, cpuUs: path.cpuUs === null ? null : path.cpuUs * 3 });

    // Every path made two events (OPENED, CLOSED): wait until the receiver has them all.
    const expected = (path.requests * 2) / 3;
    const deadline = Date.now() + 120_000;
    while (ok.count() - before < expected * 0.999 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const delivered = ok.count() - before;
    const seconds = (performance.now() - started) / 1000;
    process.stdout.write(
      `  sqlite   webhook events delivered: ${delivered} of ~${Math.round(expected)} in ${seconds.toFixed(1)} s\n`,
    );
    results.push({
      target: 'webhook events delivered/s beside the pay path (receiver answers 200)',
      backend: 'sqlite',
      rps: delivered / seconds,
      cpuUs: null,
      p50: 0,
      p99: 0,
      non2xx: 0,
      errors: delivered < expected * 0.999 ? 1 : 0,
      timeouts: 0,
      requests: delivered,
    });

    // The baseline for the hanging-receiver figure is taken now, on the database as it is after
    // the pay-path stage: comparing with the first create row would also measure the growth of
    // the database, not only the receiver.
    const createBody = {
      url: `${server.url}/v1/checkout_preferences`,
      method: 'POST' as const,
      headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
      body: PAYMENT_BODY,
    };
    const baseline = await measure(
      'POST /v1/checkout_preferences, same database, receivers idle',
      'sqlite',
      server,
      createBody,
    );
    results.push(baseline);

    // Point the endpoint at a receiver that never answers, queue deliveries, then measure creates.
    await api(server.url, 'PATCH', `/v1/webhook_endpoints/${String(endpoint.id)}`, { url: hang.url });
    for (let i = 0; i < 200; i++) {
      const pref = await api(server.url, 'POST', '/v1/checkout_preferences', JSON.parse(PAYMENT_BODY));
      await api(server.url, 'POST', `/v1/test_helpers/checkout_preferences/${String(pref.id)}/pay`, {});
    }
    const disturbed = await measure(
      'POST /v1/checkout_preferences while a receiver hangs',
      'sqlite',
      server,
      createBody,
    );
    results.push(disturbed);
    {
      const ratio = disturbed.rps / baseline.rps;
      process.stdout.write(
        `  sqlite   create while hanging / undisturbed create = ${ratio.toFixed(2)} (goal ≥ 0.80)\n`,
      );
      hangRatio.value = ratio;
    }
  } finally {
    await ok.close();
    await hang.close();
  }
  return results;
}

/** Webhook delivery's own rate: a worker sending a queued backlog (bench/webhook-drain.ts). */
async function webhookDrainRow(dir: string, profileDir?: string): Promise<Measurement> {
  const env = {
    DATABASE_URL: `sqlite:${join(dir, 'webhooks.db')}`,
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    RATE_LIMIT_PER_SECOND: '1000000',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  };
  const drain = await benchWebhookDrain(
    env,
    join(dir, 'cobro-webhooks.log'),
    {
      start: startServer,
      waitReady,
      stop: stopServer,
      cpuTimeUs,
      payPath: payPathOptions,
      api,
      receiver: () => startReceiver('ok'),
    },
    profileDir,
  );
  return {
    target: 'webhook events delivered/s by a worker, from a backlog (receiver answers 200)',
    backend: 'sqlite',
    rps: drain.events / drain.seconds,
    cpuUs: drain.cpuUsPerEvent,
    p50: 0,
    p99: 0,
    non2xx: 0,
    errors: drain.complete ? 0 : 1,
    timeouts: 0,
    requests: drain.events,
  };
}

/** Create throughput while a receiver hangs, over the undisturbed figure (issue 4's goal: ≥ 0.8). */
const hangRatio = { value: null as number | null };

/** The ceiling: measured at the start and again at the end, so drift during the run shows. */
async function benchBare(target: string, workUs = 0): Promise<Measurement> {
  const bare = await startServer(['--import', 'tsx', 'bench/bare-server.ts'], { WORK_US: String(workUs) }, null);
  try {
    await waitReady(bare, '/');
    return await measure(target, workUs > 0 ? 'calibration' : 'bare', bare, { url: bare.url });
  } finally {
    await stopServer(bare);
  }
}

/** The framework's floor (bench/framework-server.ts): Fastify with the same body, bare or with Cobro's per-answer logging. */
async function benchFramework(target: string, logged: boolean, dir: string): Promise<Measurement> {
  const server = await startServer(
    ['--import', 'tsx', 'bench/framework-server.ts'],
    { LOGGED: logged ? '1' : '0' },
    join(dir, `framework-${logged ? 'logged' : 'plain'}.log`),
  );
  try {
    await waitReady(server, '/');
    return await measure(target, 'calibration', server, { url: server.url });
  } finally {
    await stopServer(server);
  }
}

/** Per-request CPU work of the calibration rows, in µs. */
const CALIBRATION_WORK_US = [25, 50];

function pgAvailable(): boolean {
  if (process.env.BENCH_PG === '0') {
    return false;
  }
  if (process.env.BENCH_PG_URL) {
    return true;
  }
  return hasCommand('pg_isready', ['-q', '-h', '127.0.0.1', '-p', '5432']);
}

async function withPgDatabase<T>(fn: (url: string) => Promise<T>): Promise<T> {
  const name = `cobro_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
    try {
      const url = new URL(PG_ADMIN_URL);
      url.pathname = `/${name}`;
      return await fn(url.toString());
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
    }
  } finally {
    await admin.end();
  }
}

// Goals from the performance issue (re-based under this method: server on CPU 0, load on CPU 1):
// ratios to the bare server measured in the same run, or absolute rates.
const GOALS: Record<string, Goal> = {
  'sqlite POST /v1/checkout_preferences': { minRatio: 0.15, maxP99: 50, label: '≥ 0.15 × bare, p99 < 50 ms' },
  'sqlite GET /v1/checkout_preferences/{id}': { minRatio: 0.25, maxP99: 50, label: '≥ 0.25 × bare, p99 < 50 ms' },
  'sqlite GET /v1/payment_methods': { minRatio: 0.3, maxP99: 50, label: '≥ 0.30 × bare, p99 < 50 ms' },
  'sqlite pay path (create → pay → read), per path': {
    minRps: 1200,
    maxP99: 50,
    label: '≥ 1,200 paths/s, p99 < 50 ms',
  },
  'sqlite webhook events delivered/s by a worker, from a backlog (receiver answers 200)': {
    minRps: 2000,
    label: '≥ 2,000 events/s',
  },
  'postgres POST /v1/checkout_preferences': { minRatio: 0.08, maxP99: 50, label: '≥ 0.08 × bare, p99 < 50 ms' },
  'postgres GET /v1/checkout_preferences/{id}': { minRatio: 0.15, maxP99: 50, label: '≥ 0.15 × bare, p99 < 50 ms' },
};

/** Quoted from shared/TOOLCHAIN.md: measured separately on a machine of this kind, not in this run. */
const REFERENCE_ROWS = [
  '| bare `node:http`, fixed JSON | ~20,000 | 7 | 1.00 |',
  '| Fastify 5 with a response schema | ~18,000 | 7 | 0.89 |',
  '| same, pino logging every request synchronously | ~10,300 | 13 | 0.51 |',
  '| POST validated by TypeBox, no database | ~7,700 | 15 | 0.38 |',
  '| + SQLite insert, WAL, `synchronous=NORMAL` | ~4,000 | 29 | 0.20 |',
  '| + SQLite insert, WAL, `synchronous=FULL` (one commit per request) | ~1,800 | 55 | 0.09 |',
  '| + PostgreSQL insert, pool 10, `synchronous_commit=on` | ~3,100 | 31 | 0.16 |',
  '| GET by primary key, 1 M rows, SQLite (warm) | ~7,700 | 19 | 0.38 |',
  '| GET by primary key, 1 M rows, PostgreSQL (warm) | ~3,800 | 28 | 0.19 |',
];

type Verdict = { goal: string; pass: boolean | null; clean: boolean };

function judge(m: Measurement, bareRps: number): Verdict {
  const clean = m.non2xx === 0 && m.errors === 0 && m.timeouts === 0;
  const goal = GOALS[`${m.backend} ${m.target}`];
  if (!goal) {
    return { goal: '—', pass: clean ? null : false, clean };
  }
  const ratioOk =
    (goal.minRatio === undefined || m.rps / bareRps >= goal.minRatio) &&
    (goal.minRps === undefined || m.rps >= goal.minRps);
  const p99Ok = goal.maxP99 === undefined || m.p99 < goal.maxP99;
  return { goal: goal.label, pass: clean && ratioOk && p99Ok, clean };
}

function format(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function renderTable(results: Measurement[], bareRps: number): string {
  const bareCpu = results.find((m) => m.backend === 'bare' && m.rps === bareRps)?.cpuUs ?? null;
  const lines = [
    '| backend | target | req/s | p50 ms | p99 ms | non-2xx | errors | ratio to bare | goal | pass | server CPU µs/req | CPU ratio |',
    '|---|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|',
  ];
  for (const m of results) {
    const v = judge(m, bareRps);
    const cpuRatio = bareCpu !== null && m.cpuUs !== null && m.cpuUs > 0 ? format(bareCpu / m.cpuUs, 2) : '—';
    const mark = v.pass === null ? '—' : v.pass ? '✅ pass' : '❌ FAIL';
    lines.push(
      `| ${m.backend} | ${m.target} | ${format(m.rps)} | ${m.p50} | ${m.p99} | ${m.non2xx} | ${m.errors + m.timeouts} | ${format(m.rps / bareRps, 2)} | ${v.goal} | ${mark} | ${m.cpuUs === null ? '—' : format(m.cpuUs, 1)} | ${cpuRatio} |`,
    );
  }
  return lines.join('\n');
}

function loadAverage(): string {
  return loadavg()
    .map((n) => n.toFixed(2))
    .join(' / ');
}

const DASHBOARD_START = '<!-- dashboard rows: start -->';
const DASHBOARD_END = '<!-- dashboard rows: end -->';

/** The dashboard's section of the report (bench/dashboard.ts), between markers so it can be rewritten alone. */
function dashboardSection(rows: DashboardRow[]): string {
  return [
    DASHBOARD_START,
    '## Dashboard pages (100,000 orders, 10,000 subscriptions, one merchant)',
    '',
    `Measured ${new Date().toISOString()}, load average at the end ${loadAverage()}. ` +
      "Server time is the server's own elapsed time per request, from its log; 4 keep-alive connections per page, " +
      'signed in as the owner through the real invitation and sign-in pages. `BENCH_ONLY=dashboard npm run bench` ' +
      'measures these rows alone and rewrites only this section.',
    '',
    renderDashboardTable(rows),
    DASHBOARD_END,
  ].join('\n');
}

const RESULTS_FILE = join(ROOT, 'bench', 'RESULTS.md');

/** Where a marked section sits in `text` (from its start marker to the end of its end marker), if it has one. */
function sectionRange(text: string, startMarker: string, endMarker: string): [number, number] | null {
  const start = text.indexOf(startMarker);
  const end = text.indexOf(endMarker);
  return start !== -1 && end > start ? [start, end + endMarker.length] : null;
}

/** A marked section of bench/RESULTS.md as it stands (empty when it has none). */
function existingSection(startMarker: string, endMarker: string): string {
  const current = readFileSync(RESULTS_FILE, 'utf8');
  const range = sectionRange(current, startMarker, endMarker);
  return range ? current.slice(...range) : '';
}

/** Rewrites one marked section of bench/RESULTS.md (appended when the file has none yet). */
function replaceSection(startMarker: string, endMarker: string, section: string): void {
  const current = readFileSync(RESULTS_FILE, 'utf8');
  const range = sectionRange(current, startMarker, endMarker);
  writeFileSync(
    RESULTS_FILE,
    range
      ? `${current.slice(0, range[0])}${section}${current.slice(range[1])}`
      : `${current.trimEnd()}\n\n${section}\n`,
  );
}

async function dashboardOnly(): Promise<void> {
  pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
  const rows: DashboardRow[] = [];
  const tools = { root: ROOT, start: startServer, waitReady, stop: stopServer };
  try {
    rows.push(...(await benchDashboard('sqlite', `sqlite:${join(dir, 'dashboard.db')}`, dir, tools)));
    if (pgAvailable()) {
      rows.push(...(await withPgDatabase((url) => benchDashboard('postgres', url, dir, tools))));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  replaceSection(DASHBOARD_START, DASHBOARD_END, dashboardSection(rows));
  process.stdout.write(`\n${renderDashboardTable(rows)}\n\nwritten to bench/RESULTS.md\n`);
  if (rows.some((r) => r.non2xx > 0 || r.errors > 0)) {
    process.exitCode = 1;
  }
}

/** The load rows of both databases (bench/load.ts). */
async function loadReports(dir: string): Promise<LoadReport[]> {
  const tools = { root: ROOT, start: startServer, waitReady, stop: stopServer };
  const reports = [await benchLoad('sqlite', `sqlite:${join(dir, 'load.db')}`, dir, tools)];
  if (pgAvailable()) {
    reports.push(await withPgDatabase((url) => benchLoad('postgres', url, dir, tools)));
  }
  return reports;
}

async function loadOnly(): Promise<void> {
  pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
  let reports: LoadReport[];
  try {
    reports = await loadReports(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const section = renderLoadSection(reports, loadAverage());
  replaceSection(LOAD_START, LOAD_END, section);
  process.stdout.write(`\n${section}\n\nwritten to bench/RESULTS.md\n`);
  if (loadBroken(reports)) {
    process.exitCode = 1;
  }
}

/** Renewal rows: BENCH_RENEWALS (10,000) subscriptions due at once on each database (bench/renewals.ts). */
async function renewalRows(): Promise<RenewalsRow[]> {
  const count = Number(process.env.BENCH_RENEWALS ?? 10_000);
  const rows = [await benchRenewals('sqlite', count)];
  if (pgAvailable()) {
    rows.push(await withPgDatabase((url) => benchRenewals('postgres', count, url)));
  }
  return rows;
}

async function renewalsOnly(): Promise<void> {
  const rows = await renewalRows();
  const section = renderRenewalsSection(rows, loadAverage());
  replaceSection(RENEWALS_START, RENEWALS_END, section);
  process.stdout.write(`\n${section}\n\nwritten to bench/RESULTS.md\n`);
}

/**
 * One server per target, started under `node --cpu-prof`, loaded as in the rows above for the
 * measured seconds, then stopped: its profile's top frames (bench/profile.ts).
 */
async function profileOnly(): Promise<void> {
  pinSelf();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
  const profiles: Profile[] = [];
  try {
    const targets: { name: string; options: (url: string, ids: string[]) => autocannon.Options }[] = [
      {
        name: 'POST /v1/checkout_preferences',
        options: (url) => ({
          url: `${url}/v1/checkout_preferences`,
          method: 'POST',
          headers: { ...AUTH_HEADERS, 'content-type': 'application/json' },
          body: PAYMENT_BODY,
        }),
      },
      {
        name: 'GET /v1/checkout_preferences/{id}',
        options: (url, ids) => {
          let next = 0;
          return {
            url,
            requests: [
              {
                method: 'GET',
                headers: AUTH_HEADERS,
                setupRequest: (request) => ({
                  ...request,
                  path: `/v1/checkout_preferences/${ids[next++ % ids.length]}`,
                }),
              },
            ],
          };
        },
      },
      {
        name: 'GET /v1/payment_methods',
        options: (url) => ({ url: `${url}/v1/payment_methods`, method: 'GET', headers: AUTH_HEADERS }),
      },
      { name: 'pay path (create → pay → read)', options: (url) => payPathOptions(url) },
    ];
    // The PostgreSQL rows whose targets are ratios: where Cobro's own CPU goes beside the database.
    const runs = [
      ...targets.map((target) => ({ backend: 'sqlite' as const, target })),
      ...targets.slice(0, 2).map((target) => ({ backend: 'postgres' as const, target })),
    ];
    for (const [i, { backend, target }] of runs.entries()) {
      const profileDir = join(dir, `profile-${i}`);
      const statementsFile = join(dir, `statements-${i}.json`);
      const profileServer = async (databaseUrl: string) => {
        const server = await startServer(
          [
            '--cpu-prof',
            '--cpu-prof-dir',
            profileDir,
            '--require',
            join(ROOT, 'bench', 'statement-timer.cjs'),
            ...cobroArgs('serve'),
          ],
          {
            COBRO_BENCH_STATEMENTS: statementsFile,
            DATABASE_URL: databaseUrl,
            BOOTSTRAP_API_KEY: API_KEY,
            BOOTSTRAP_API_SECRET: API_SECRET,
            RATE_LIMIT_PER_SECOND: '1000000',
            LOG_LEVEL: 'info',
          },
          join(dir, `profile-${i}.log`),
        );
        try {
          await waitReady(server, '/ready');
          const ids = await createPreferences(server.url, PREFERENCES);
          await measure(target.name, backend, server, target.options(server.url, ids));
        } finally {
          await stopServer(server);
        }
      };
      if (backend === 'sqlite') {
        await profileServer(`sqlite:${join(dir, `profile-${i}.db`)}`);
      } else {
        await withPgDatabase(profileServer);
      }
      profiles.push({
        target: `${backend} ${target.name}`,
        ...topFrames(readProfile(profileDir), 12),
        statements: readStatements(statementsFile, 8),
      });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const section = renderProfilesSection(
    profiles,
    `Measured ${new Date().toISOString()}, load average at the end ${loadAverage()}; \`node dist/serve.js\` pinned to CPU 0 ` +
      `with \`--cpu-prof\`, ${CONNECTIONS} connections for ${WARMUP_SECONDS} + ${MEASURED_SECONDS} s per target (the profile also holds the start-up and the ${PREFERENCES} creates before the load).`,
  );
  replaceSection(PROFILES_START, PROFILES_END, section);
  process.stdout.write(`\n${section}\n\nwritten to bench/RESULTS.md\n`);
}

async function main(): Promise<void> {
  if (process.env.BENCH_ONLY === 'profile') {
    return profileOnly();
  }
  if (process.env.BENCH_ONLY === 'renewals') {
    return renewalsOnly();
  }
  if (process.env.BENCH_ONLY === 'dashboard') {
    return dashboardOnly();
  }
  if (process.env.BENCH_ONLY === 'webhooks') {
    // A quick look while working on delivery: printed only, RESULTS.md is left as it is.
    const dir = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
    try {
      pinSelf();
      // BENCH_PROFILE=1: the worker runs under --cpu-prof, and its top frames are printed.
      const profileDir = process.env.BENCH_PROFILE === '1' ? join(dir, 'profile') : undefined;
      const row = await webhookDrainRow(dir, profileDir);
      process.stdout.write(`  worker CPU per event: ${row.cpuUs?.toFixed(0) ?? '?'} µs\n`);
      if (profileDir) {
        const { frames, samples } = topFrames(readProfile(profileDir), 25);
        process.stdout.write(`  worker profile, ${samples} busy samples (self time):\n`);
        for (const f of frames) {
          process.stdout.write(`  ${(f.selfShare * 100).toFixed(1).padStart(5)} %  ${f.name}  ${f.where}\n`);
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  if (process.env.BENCH_ONLY === 'load') {
    return loadOnly();
  }
  const pinned = pinSelf();
  const loadBefore = loadAverage();
  const dir = mkdtempSync(join(tmpdir(), 'cobro-bench-'));
  const results: Measurement[] = [];
  const dashboardRows: DashboardRow[] = [];
  let load: LoadReport[] = [];
  let renewals: RenewalsRow[] = [];
  let pgNote = 'PostgreSQL: not measured (nothing answered `pg_isready -h 127.0.0.1 -p 5432`, or BENCH_PG=0).';
  try {
    process.stdout.write(
      `Cobro bench: ${CONNECTIONS} connections, ${WARMUP_SECONDS} s warm-up + ${MEASURED_SECONDS} s measured per target; ` +
        `servers on ${TASKSET ? 'CPU 0' : 'any CPU (no taskset)'}, load generator on ${pinned ? 'CPU 1' : 'any CPU'}\n`,
    );
    results.push(await benchBare('GET / (fixed JSON), first'));
    for (const workUs of CALIBRATION_WORK_US) {
      results.push(await benchBare(`GET / after ${workUs} µs of CPU work`, workUs));
    }
    results.push(await benchFramework('Fastify, GET / (fixed JSON)', false, dir));
    results.push(await benchFramework('Fastify, GET / (fixed JSON), request id and log line', true, dir));
    results.push(...(await benchCobro('sqlite', `sqlite:${join(dir, 'cobro.db')}`, dir)));
    results.push(await webhookDrainRow(dir));
    const tools = { root: ROOT, start: startServer, waitReady, stop: stopServer };
    const dashboard = process.env.BENCH_DASHBOARD !== '0';
    if (dashboard) {
      dashboardRows.push(...(await benchDashboard('sqlite', `sqlite:${join(dir, 'dashboard.db')}`, dir, tools)));
    }
    if (pgAvailable()) {
      results.push(...(await withPgDatabase((url) => benchCobro('postgres', url, dir))));
      if (dashboard) {
        dashboardRows.push(...(await withPgDatabase((url) => benchDashboard('postgres', url, dir, tools))));
      }
      const server = process.env.BENCH_PG_URL ? new URL(PG_ADMIN_URL).host.replace(/%2F/gi, '/') : '127.0.0.1:5432';
      pgNote = `PostgreSQL: ${server}, a fresh database \`cobro_bench_…\` created for the run and dropped after.`;
    }
    if (process.env.BENCH_LOAD !== '0') {
      load = await loadReports(dir);
    }
    if (process.env.BENCH_RENEWALS !== '0') {
      renewals = await renewalRows();
    }
    results.push(await benchBare('GET / (fixed JSON), last'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  // The better of the two bare runs: a bare figure pulled down by other load must not flatter the ratios.
  const bareRps = Math.max(...results.filter((m) => m.backend === 'bare').map((m) => m.rps));
  const table = renderTable(results, bareRps);
  const cpu = cpus();
  const report = [
    '# Cobro benchmark results',
    '',
    'Written by `npm run bench` (bench/run.ts); every row below was measured in the same run.',
    '',
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${cpu.length} cores (${cpu[0]?.model.trim() ?? 'unknown CPU'}), Node.js ${process.version}, ${process.platform} ${process.arch}`,
    `- Load: autocannon, ${CONNECTIONS} connections, loopback, ${WARMUP_SECONDS} s warm-up then ${MEASURED_SECONDS} s measured per target`,
    `- Pinning: servers ${TASKSET ? '`taskset -c 0`' : 'not pinned (no taskset)'}, load generator ${pinned ? '`taskset -c 1`' : 'not pinned'}`,
    '- Cobro: `node dist/serve.js` (compiled by `npm run build`, as `npm start` runs it), default configuration (LOG_LEVEL=info, one log line per request to a file), ' +
      'SQLite WAL with `synchronous=FULL` in a fresh temporary directory; RATE_LIMIT_PER_SECOND=1000000',
    `- ${pgNote}`,
    `- Load average (1 / 5 / 15 min) at start: ${loadBefore}; at end: ${loadAverage()}. Other work on the machine lowers req/s and raises p99; the server's CPU time per request moves much less.`,
    `- GET by id: ${PREFERENCES} preferences created beforehand, requests spread over them round robin`,
    '',
    '## This run',
    '',
    'Where each row stands against its target over three runs, where its time goes, and what the targets not met would take: [docs/performance.md](../docs/performance.md).',
    '',
    table,
    '',
    "Ratio = req/s divided by the bare `node:http` server's req/s in this run (the better of its two runs). Errors = connection errors + timeouts. " +
      'p99 is of 2xx answers (autocannon records only those). Server CPU = user + system time of the server process ' +
      "(all its threads) per answered request; for PostgreSQL it leaves out the database server's own CPU, and a " +
      "create also waits for its commit's fsync, which is not CPU time. CPU ratio = the bare server's CPU per request " +
      "divided by this row's: the req/s ratio if each server were limited by its own CPU alone (informational; the " +
      'goals are judged on req/s).',
    '',
    'The pay path row counts one create → pay (approving test card) → read sequence as one; its req/s is paths per second. ' +
      'Two webhook rows, both to a loopback receiver answering 200 (each path makes two events): beside the pay path, ' +
      'events delivered per second while the same process takes the payments that make them (bounded by that rate), ' +
      'and by a worker, the rate at which one `cobro worker` (pinned to CPU 0) sends a backlog of 8,000 events queued ' +
      'by an API process run with `--jobs=off`, from the first event received to the last; its CPU column is the ' +
      "worker's CPU per event. " +
      (hangRatio.value === null
        ? ''
        : `Create throughput while a receiver hangs on every delivery / create throughput on the same database with idle receivers (measured just before): **${hangRatio.value.toFixed(2)}** (goal ≥ 0.80: ${hangRatio.value >= 0.8 ? '✅ pass' : '❌ FAIL'}).`),
    '',
    'The two Fastify rows (bench/framework-server.ts) answer the same body through the framework Cobro runs on, the second ' +
      'also with what every Cobro answer carries besides its route (an `x-request-id` header and one buffered JSON log line): ' +
      "the floor of any Cobro row; the distance from it to a Cobro row is that route's own work. " +
      `The calibration rows run the bare server again, kept busy for ${CALIBRATION_WORK_US.join(' or ')} µs of CPU before each answer: ` +
      'what a server reaches under this load when it does a known amount of work per request. With the server on one ' +
      'core and the load generator on the other, a server slower than its client also pays, in its socket writes, for ' +
      'waking the client on every answer, so the ratio falls faster than the added work alone would explain.',
    '',
    '## Reference figures (quoted from shared/TOOLCHAIN.md, measured separately, not in this run)',
    '',
    '| server | req/s | p99 ms | ratio to bare |',
    '|---|---|---|---|',
    ...REFERENCE_ROWS,
    '',
    'The machine is noisy (±20 % between sittings): compare ratios measured in one run.',
    '',
    // Sections not measured in this run (BENCH_DASHBOARD=0, BENCH_LOAD=0, BENCH_RENEWALS=0) keep their last figures.
    dashboardRows.length > 0 ? dashboardSection(dashboardRows) : existingSection(DASHBOARD_START, DASHBOARD_END),
    '',
    load.length > 0 ? renderLoadSection(load, loadAverage()) : existingSection(LOAD_START, LOAD_END),
    '',
    renewals.length > 0
      ? renderRenewalsSection(renewals, loadAverage())
      : existingSection(RENEWALS_START, RENEWALS_END),
    '',
    // Profiles are taken only by BENCH_ONLY=profile.
    existingSection(PROFILES_START, PROFILES_END),
    '',
  ].join('\n');
  writeFileSync(RESULTS_FILE, report);
  process.stdout.write(`\n${table}\n\nReference (TOOLCHAIN.md, measured separately):\n${REFERENCE_ROWS.join('\n')}\n`);
  process.stdout.write('\nwritten to bench/RESULTS.md\n');

  const verdicts = results.map((m) => judge(m, bareRps));
  if (verdicts.some((v) => !v.clean) || loadBroken(load)) {
    process.stderr.write('bench: some runs had non-2xx answers or connection errors (see the table)\n');
    process.exitCode = 1;
  } else if (process.env.BENCH_STRICT === '1' && verdicts.some((v) => v.pass === false)) {
    process.stderr.write('bench: a target was missed (BENCH_STRICT=1)\n');
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
