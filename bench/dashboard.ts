/**
 * The dashboard rows of the benchmark: one merchant with 100,000 payment orders and 10,000
 * subscriptions (scripts/seed-dashboard.ts), the real server on that database, an owner signed
 * in through the real invitation and sign-in pages, then each page requested over a few
 * keep-alive connections. The goal is server time: p95 under 50 ms per page.
 *
 * Server time is read from the server's own log: every answered request has a line with its
 * path and `ms`, Fastify's elapsed time from the request's arrival to the end of the answer. The client's
 * latency adds only the loopback and the load generator's own wait, so it is reported beside it.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { cobroArgs } from '../test/support/dist.ts';

const run = promisify(execFile);

/** What bench/run.ts lends: its way of starting, waiting for and stopping a server. */
export type ServerTools<S extends { url: string }> = {
  root: string;
  start(args: string[], env: Record<string, string>, logFile: string): Promise<S>;
  waitReady(server: S, path: string): Promise<void>;
  stop(server: S): Promise<void>;
};

export type DashboardRow = {
  backend: string;
  page: string;
  requests: number;
  serverP50: number;
  serverP95: number;
  serverMax: number;
  clientP50: number;
  clientP97_5: number;
  non2xx: number;
  errors: number;
};

const ORDERS = 100_000;
const SUBSCRIPTIONS = 10_000;
/** Few connections: these are pages people open, and the goal is each page's own time, not throughput. */
const CONNECTIONS = 4;
const SECONDS = Number(process.env.BENCH_DASHBOARD_SECONDS ?? 5);
const PASSWORD = 'bench dashboard passphrase 7';

/** A cookie jar by name and a form post with the CSRF token of the last page, over real HTTP. */
class Browser {
  private readonly cookies = new Map<string, string>();
  private last = '';
  constructor(private readonly origin: string) {}

  cookie(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }

  async get(path: string): Promise<string> {
    const res = await fetch(`${this.origin}${path}`, { headers: { cookie: this.cookie() }, redirect: 'manual' });
    this.keep(res);
    this.last = await res.text();
    if (res.status !== 200) {
      throw new Error(`GET ${path} answered ${res.status}`);
    }
    return this.last;
  }

  async post(path: string, fields: Record<string, string>): Promise<void> {
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(this.last)?.[1] ?? '';
    const res = await fetch(`${this.origin}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: this.cookie(),
        origin: this.origin,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ csrf_token: csrf, ...fields }).toString(),
    });
    this.keep(res);
    await res.arrayBuffer();
    if (res.status !== 303) {
      throw new Error(`POST ${path} answered ${res.status}`);
    }
  }
}

/** Seeds the database (migrating it first) and returns the seeded merchant's id. */
async function seed(root: string, databaseUrl: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'scripts/seed-dashboard.ts',
      '--database-url',
      databaseUrl,
      '--orders',
      String(ORDERS),
      '--subscriptions',
      String(SUBSCRIPTIONS),
      '--runs',
      '1',
    ],
    { cwd: root, maxBuffer: 1 << 20 },
  );
  const id = /merchant (\w+) \(mode live\)/.exec(stdout)?.[1];
  if (!id) {
    throw new Error(`the seed printed no merchant id:\n${stdout}`);
  }
  return id;
}

/** An owner invitation made by the command line, as an operator would. */
async function invite(root: string, databaseUrl: string, merchantId: string, secretsKey: string): Promise<string> {
  const { stdout } = await run(
    process.execPath,
    cobroArgs(
      'cobro',
      'user',
      'invite',
      '--merchant',
      merchantId,
      '--email',
      'owner@bench.example',
      '--role',
      'owner',
      '--json',
    ),
    { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl, SECRETS_KEY: secretsKey } },
  );
  return new URL(JSON.parse(stdout).invite_url as string).pathname;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) {
    return Number.NaN;
  }
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** The server time (ms) of every answered request to `path` (query left out, as the log writes it), in log order. */
function serverTimes(logFile: string, path: string): number[] {
  const times: number[] = [];
  for (const line of readFileSync(logFile, 'utf8').split('\n')) {
    if (!line.includes('"ms":')) {
      continue;
    }
    try {
      const entry = JSON.parse(line) as { path?: string; ms?: number };
      if (entry.path === path && typeof entry.ms === 'number') {
        times.push(entry.ms);
      }
    } catch {
      // A line cut short at the end of the file.
    }
  }
  return times;
}

/** The logger writes at least every second: wait for the lines of what was just answered. */
const logFlushed = () => new Promise((resolve) => setTimeout(resolve, 1_500));

export async function benchDashboard<S extends { url: string }>(
  backend: 'sqlite' | 'postgres',
  databaseUrl: string,
  dir: string,
  tools: ServerTools<S>,
): Promise<DashboardRow[]> {
  process.stdout.write(
    `  ${backend.padEnd(8)} dashboard: seeding ${ORDERS} orders and ${SUBSCRIPTIONS} subscriptions … `,
  );
  const started = Date.now();
  const merchantId = await seed(tools.root, databaseUrl);
  process.stdout.write(`${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  const secretsKey = Buffer.alloc(32, 7).toString('base64');
  const invitation = await invite(tools.root, databaseUrl, merchantId, secretsKey);
  const logFile = join(dir, `dashboard-${backend}.log`);
  const server = await tools.start(
    cobroArgs('serve'),
    { DATABASE_URL: databaseUrl, SECRETS_KEY: secretsKey, RATE_LIMIT_PER_SECOND: '1000000', LOG_LEVEL: 'info' },
    logFile,
  );
  try {
    await tools.waitReady(server, '/ready');
    const browser = new Browser(server.url);
    await browser.get(invitation);
    await browser.post(invitation, { password: PASSWORD, confirm: PASSWORD });
    await browser.get('/dashboard/login');
    await browser.post('/dashboard/login', { email: 'owner@bench.example', password: PASSWORD });

    const orders = await browser.get('/dashboard/payments');
    const orderId = /\/dashboard\/payment_orders\/(\w+)/.exec(orders)?.[1];
    const plans = await browser.get('/dashboard/subscriptions');
    const planId = /\/dashboard\/payment_links\/(\w+)"/.exec(plans)?.[1];
    if (!orderId || !planId) {
      throw new Error('the seeded lists show no order or no plan');
    }
    const today = new Date();
    const monthAgo = new Date(today.getTime() - 30 * 86_400_000);
    const weekAgo = new Date(today.getTime() - 7 * 86_400_000);
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const pages: [string, string][] = [
      ['home, today', '/dashboard?range=today'],
      ['home, 7 days', '/dashboard?range=7d'],
      ['home, 30 days', '/dashboard?range=30d'],
      ['home, 90 days', '/dashboard?range=90d'],
      ['payment orders', '/dashboard/payments'],
      [
        'payment orders, filtered',
        `/dashboard/payments?status=CLOSED&method=PIX&created_from=${day(monthAgo)}&created_to=${day(today)}`,
      ],
      ['payment orders, by payer e-mail', '/dashboard/payments?payer_email=nobody%40example.com'],
      ['checkouts', '/dashboard/checkout_preferences'],
      ['order page', `/dashboard/payment_orders/${orderId}`],
      [
        'CSV export, 7 days (a download)',
        `/dashboard/payments.csv?created_from=${day(weekAgo)}&created_to=${day(today)}`,
      ],
      ['plans', '/dashboard/subscriptions'],
      ['plan page', `/dashboard/payment_links/${planId}`],
      ['subscribers', '/dashboard/recurrent_payments'],
      ['developers', '/dashboard/developers'],
    ];
    const rows: DashboardRow[] = [];
    for (const [page, path] of pages) {
      process.stdout.write(`  ${backend.padEnd(8)} dashboard ${page} … `);
      const options = { url: `${server.url}${path}`, headers: { cookie: browser.cookie() }, connections: CONNECTIONS };
      await autocannon({ ...options, duration: 1 });
      await logFlushed();
      const logged = path.split('?')[0] as string;
      const before = serverTimes(logFile, logged).length;
      const r = await autocannon({ ...options, duration: SECONDS });
      await logFlushed();
      const measured = serverTimes(logFile, logged)
        .slice(before)
        .sort((a, b) => a - b);
      const row: DashboardRow = {
        backend,
        page,
        requests: r.requests.total,
        serverP50: percentile(measured, 50),
        serverP95: percentile(measured, 95),
        serverMax: measured.at(-1) ?? Number.NaN,
        clientP50: r.latency.p50,
        clientP97_5: r.latency.p97_5,
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
      };
      rows.push(row);
      process.stdout.write(
        `server p50 ${row.serverP50.toFixed(1)} ms, p95 ${row.serverP95.toFixed(1)} ms (${r.requests.total} requests, non-2xx ${r.non2xx})\n`,
      );
    }
    return rows;
  } finally {
    await tools.stop(server);
  }
}

/** A download's time grows with the rows it holds: it is reported, not judged against a page's goal. */
function verdict(r: DashboardRow): string {
  const clean = r.non2xx === 0 && r.errors === 0 && r.requests > 0;
  if (r.page.includes('(a download)')) {
    return clean ? '— (download)' : '❌ FAIL';
  }
  return clean && r.serverP95 < 50 ? '✅ pass' : '❌ FAIL';
}

export function renderDashboardTable(rows: DashboardRow[]): string {
  const f = (n: number) => (Number.isFinite(n) ? n.toFixed(1) : '—');
  return [
    '| backend | page | requests | server p50 ms | server p95 ms | server max ms | client p50 ms | client p97.5 ms | non-2xx | errors | goal p95 < 50 ms |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
    ...rows.map(
      (r) =>
        `| ${r.backend} | ${r.page} | ${r.requests} | ${f(r.serverP50)} | ${f(r.serverP95)} | ${f(r.serverMax)} | ${r.clientP50} | ${r.clientP97_5} | ${r.non2xx} | ${r.errors} | ${verdict(r)} |`,
    ),
  ].join('\n');
}
