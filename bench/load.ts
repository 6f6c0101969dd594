/**
 * RELIABILITY.md R21, the load rows of `npm run bench`: a minute of creates and half a minute of
 * catalogue reads at 50 connections, the server's memory before and after, the same minute of
 * creates while R9's chaos receiver is failing most webhook deliveries, and the time a restart
 * takes to be ready on the database those runs left behind. `BENCH_ONLY=load npm run bench`
 * measures these rows alone and rewrites only their section of bench/RESULTS.md.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import autocannon from 'autocannon';
import type { ChaosMode } from '../test/support/chaos-receiver.ts';
import { startChaosReceiver } from '../test/support/chaos-receiver.ts';
import { cobroArgs } from '../test/support/dist.ts';
import type { ServerTools } from './dashboard.ts';

const CONNECTIONS = 50;
const WARMUP_SECONDS = positiveSeconds('BENCH_LOAD_WARMUP_SECONDS', 10);
const CREATE_SECONDS = positiveSeconds('BENCH_LOAD_CREATE_SECONDS', 60);
const CATALOG_SECONDS = positiveSeconds('BENCH_LOAD_CATALOG_SECONDS', 30);
/** Status changes queued for the chaos receiver before the disturbed run (two events per pay). */
const CHAOS_PAYS = 1_000;
const RESTARTS = 10;

const API_KEY = `ck_test_load${randomBytes(8).toString('hex')}`;
const API_SECRET = `cs_test_load${randomBytes(16).toString('hex')}`;
const AUTH = { 'x-api-key': API_KEY, 'x-api-secret': API_SECRET };
const PAYMENT_BODY = JSON.stringify({
  type: 'PAYMENT',
  origin: 'API',
  amount: 16.9,
  currency: 'USD',
  title: 'Load tea for two',
});

/** R9's receiver: half the attempts fail with 500, a tenth outlast the timeout, a tenth reset… */
const R9_MODES: readonly (readonly [ChaosMode, number])[] = [
  [{ kind: '500' }, 50],
  [{ kind: 'slow', ms: 1_500 }, 10],
  [{ kind: 'reset-before-body' }, 5],
  [{ kind: 'reset-after-body' }, 5],
  [{ kind: '3xx', location: 'http://127.0.0.1:9/elsewhere' }, 5],
  [{ kind: 'hang' }, 5],
  [{ kind: 'ok' }, 20],
];

export type LoadRow = {
  backend: string;
  run: string;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
};

export type LoadReport = {
  backend: string;
  rows: LoadRow[];
  /** Server RSS (MiB) after the warm-up and after the last run. */
  rssStartMiB: number | null;
  rssEndMiB: number | null;
  /** Create throughput while the chaos receiver is delivered to, over creates on the same database just before. */
  chaosRatio: number;
  chaos: { attempts: number; failed: number; maxConnections: number };
  restartMs: number[];
};

type Started = { url: string; child: { pid?: number | undefined } };

function positiveSeconds(name: string, fallback: number): number {
  const raw = process.env[name];
  const n = raw === undefined || raw.trim() === '' ? fallback : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 600) {
    throw new Error(`${name} must be an integer from 1 to 600, got "${raw}"`);
  }
  return n;
}

/** Resident memory of a process in MiB (Linux /proc; null elsewhere). */
function rssMiB(pid: number | undefined): number | null {
  if (pid === undefined) {
    return null;
  }
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : null;
  } catch {
    return null;
  }
}

async function api(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const parsed = (await res.json()) as Record<string, unknown>;
  if (res.status >= 300) {
    throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(parsed)}`);
  }
  return parsed;
}

async function run(backend: string, name: string, seconds: number, options: autocannon.Options): Promise<LoadRow> {
  process.stdout.write(`  ${backend.padEnd(8)} load: ${name}, ${seconds} s … `);
  const r = await autocannon({ connections: CONNECTIONS, timeout: 10, duration: seconds, ...options });
  const row: LoadRow = {
    backend,
    run: name,
    seconds,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
  process.stdout.write(`${Math.round(row.rps)} req/s, p99 ${row.p99} ms, max ${row.max} ms\n`);
  return row;
}

export async function benchLoad<S extends Started>(
  backend: 'sqlite' | 'postgres',
  databaseUrl: string,
  dir: string,
  tools: ServerTools<S>,
): Promise<LoadReport> {
  const env = {
    DATABASE_URL: databaseUrl,
    BOOTSTRAP_API_KEY: API_KEY,
    BOOTSTRAP_API_SECRET: API_SECRET,
    SECRETS_KEY: Buffer.alloc(32, 9).toString('base64'),
    RATE_LIMIT_PER_SECOND: '1000000',
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    // R9's schedule compressed: retries within the run, and a timeout the slow answers outlast.
    WEBHOOK_RETRY_DELAYS: '1,2,4,8,16,32',
    WEBHOOK_TIMEOUT_MS: '1000',
  };
  const logFile = join(dir, `load-${backend}.log`);
  const create = {
    method: 'POST' as const,
    headers: { ...AUTH, 'content-type': 'application/json' },
    body: PAYMENT_BODY,
  };
  const rows: LoadRow[] = [];
  const receiver = await startChaosReceiver({ seed: 21, modes: R9_MODES, maxConsecutiveFailures: 5 });
  let server = await tools.start(cobroArgs('serve'), env, logFile);
  let rssStart: number | null = null;
  let rssEnd: number | null = null;
  try {
    await tools.waitReady(server, '/ready');
    process.stdout.write(`  ${backend.padEnd(8)} load: warm-up, ${WARMUP_SECONDS} s\n`);
    await autocannon({
      connections: CONNECTIONS,
      duration: WARMUP_SECONDS,
      url: `${server.url}/v1/checkout_preferences`,
      ...create,
    });
    rssStart = rssMiB(server.child.pid);
    rows.push(
      await run(backend, 'POST /v1/checkout_preferences', CREATE_SECONDS, {
        url: `${server.url}/v1/checkout_preferences`,
        ...create,
      }),
    );
    rows.push(
      await run(backend, 'GET /v1/payment_methods', CATALOG_SECONDS, {
        url: `${server.url}/v1/payment_methods`,
        headers: AUTH,
      }),
    );

    // The baseline of the chaos figure: creates again, now, on the database the runs above grew
    // (a quarter of a million rows more than at the start): compared with the first run, the
    // disturbed one would also measure that growth, not only the receiver.
    const baseline = await run(backend, 'POST /v1/checkout_preferences, same database, receiver idle', CREATE_SECONDS, {
      url: `${server.url}/v1/checkout_preferences`,
      ...create,
    });
    rows.push(baseline);

    // The chaos receiver gets every payment's events; a backlog is queued before the run so that
    // delivery, and its failures and retries, go on through all of it.
    await api(server.url, 'POST', '/v1/webhook_endpoints', { url: `${receiver.url}/hooks` });
    let left = CHAOS_PAYS;
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        while (left-- > 0) {
          const pref = await api(server.url, 'POST', '/v1/checkout_preferences', JSON.parse(PAYMENT_BODY));
          await api(server.url, 'POST', `/v1/test_helpers/checkout_preferences/${String(pref.id)}/pay`, {});
        }
      }),
    );
    const disturbed = await run(
      backend,
      'POST /v1/checkout_preferences while R9 chaos receiver is active',
      CREATE_SECONDS,
      {
        url: `${server.url}/v1/checkout_preferences`,
        ...create,
      },
    );
    rows.push(disturbed);
    rssEnd = rssMiB(server.child.pid);
    const failed = receiver.requests.filter((r) => r.mode !== 'ok').length;

    // Restart to ready on the database the runs left behind (R3's bound: p99 ≤ 2 s).
    const restartMs: number[] = [];
    for (let i = 0; i < RESTARTS; i++) {
      await tools.stop(server);
      const began = performance.now();
      server = await tools.start(cobroArgs('serve'), env, logFile);
      await tools.waitReady(server, '/ready');
      restartMs.push(performance.now() - began);
    }
    process.stdout.write(
      `  ${backend.padEnd(8)} load: restart to ready ${restartMs.map((ms) => Math.round(ms)).join(', ')} ms\n`,
    );
    return {
      backend,
      rows,
      rssStartMiB: rssStart,
      rssEndMiB: rssEnd,
      chaosRatio: disturbed.rps / baseline.rps,
      chaos: { attempts: receiver.requests.length, failed, maxConnections: receiver.maxConcurrentConnections() },
      restartMs,
    };
  } finally {
    await tools.stop(server);
    await receiver.close();
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

export const LOAD_START = '<!-- load rows: start -->';
export const LOAD_END = '<!-- load rows: end -->';

/** The load section of bench/RESULTS.md, between markers so it can be rewritten alone. */
export function renderLoadSection(reports: LoadReport[], loadAverage: string): string {
  const verdict = (ok: boolean) => (ok ? '✅' : '❌');
  const lines = [
    LOAD_START,
    `## Load (RELIABILITY.md R21), ${CONNECTIONS} connections`,
    '',
    `Measured ${new Date().toISOString()}, load average at the end ${loadAverage}. ${WARMUP_SECONDS} s of creates to warm up, then ` +
      `${CREATE_SECONDS} s of creates, ${CATALOG_SECONDS} s of catalogue reads, ${CREATE_SECONDS} s of creates again (the baseline of the chaos ` +
      `figure, on the database as it then is), ${CHAOS_PAYS} pays queued for R9's chaos receiver ` +
      `(50 % 500, 10 % slower than the 1 s timeout, 10 % reset, 5 % redirect, 5 % hang, 20 % ok; retries 1–32 s apart), ` +
      `and ${CREATE_SECONDS} s of creates again while it is delivered to. The server is pinned to CPU 0 as in the rows above. ` +
      '`BENCH_ONLY=load npm run bench` measures these rows alone and rewrites only this section.',
    '',
    '| backend | run | req/s | p50 ms | p99 ms | max ms | non-2xx | errors |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const report of reports) {
    for (const r of report.rows) {
      lines.push(
        `| ${r.backend} | ${r.run} (${r.seconds} s) | ${Math.round(r.rps)} | ${r.p50} | ${r.p99} | ${r.max} | ${r.non2xx} | ${r.errors} |`,
      );
    }
  }
  lines.push(
    '',
    '| backend | RSS after warm-up → end | growth (goal < 10 %) | creates with chaos receiver / just before without (goal ≥ 0.80) | receiver attempts (failed) | restart to ready p50 / p99 (goal p99 ≤ 2 s) |',
  );
  lines.push('|---|---|---|---|---|---|');
  for (const report of reports) {
    const growth =
      report.rssStartMiB !== null && report.rssEndMiB !== null
        ? (report.rssEndMiB - report.rssStartMiB) / report.rssStartMiB
        : null;
    const p99 = percentile(report.restartMs, 99);
    lines.push(
      `| ${report.backend} | ${report.rssStartMiB?.toFixed(0) ?? '?'} → ${report.rssEndMiB?.toFixed(0) ?? '?'} MiB | ` +
        `${growth === null ? 'not measured' : `${(growth * 100).toFixed(1)} % ${verdict(growth < 0.1)}`} | ` +
        `${report.chaosRatio.toFixed(2)} ${verdict(report.chaosRatio >= 0.8)} | ` +
        `${report.chaos.attempts} (${report.chaos.failed}) | ` +
        `${Math.round(percentile(report.restartMs, 50))} / ${Math.round(p99)} ms ${verdict(p99 <= 2000)} |`,
    );
  }
  lines.push(LOAD_END);
  return lines.join('\n');
}

/** Whether a report shows a failure that makes the figures meaningless (an error, a non-2xx). */
export function loadBroken(reports: LoadReport[]): boolean {
  return reports.some((report) => report.rows.some((r) => r.non2xx > 0 || r.errors > 0));
}
