/**
 * Webhook delivery capacity: how fast one `cobro worker` sends a backlog of events to a receiver
 * that answers 200 at once. An API process with `--jobs=off` takes payments (create → pay) until
 * the backlog is queued and stops; then a worker starts on the same database, pinned to the
 * server's CPU, and the clock runs from the first event the receiver gets to the last. Measured
 * this way the row is the delivery pipeline's own rate, not the rate at which a loaded API
 * produces events (what the row measured when delivery ran beside the pay path).
 */
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { cobroArgs } from '../test/support/dist.ts';

type Server = { child: ChildProcess; url: string; stderr: () => string };

export type DrainTools = {
  start(args: string[], env: Record<string, string>, stdoutFile: string | null): Promise<Server>;
  waitReady(server: Server, path: string): Promise<void>;
  stop(server: Server): Promise<void>;
  cpuTimeUs(pid: number | undefined): number | null;
  /** autocannon options for one create → pay → read path per connection loop. */
  payPath(url: string): autocannon.Options;
  api(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
};

export type DrainResult = { events: number; seconds: number; cpuUsPerEvent: number | null; complete: boolean };

/** Each paid path queues two events (OPENED, CLOSED) for the endpoint. */
const PATHS = 4000;

export async function benchWebhookDrain(
  env: Record<string, string>,
  logFile: string,
  tools: DrainTools,
): Promise<DrainResult> {
  const receiver = await startCountingReceiver();
  try {
    const api = await tools.start(cobroArgs('cobro', 'serve', '--jobs=off'), env, logFile);
    let expected = 0;
    try {
      await tools.waitReady(api, '/ready');
      await tools.api(api.url, 'POST', '/v1/webhook_endpoints', { url: receiver.url });
      const paid = await autocannon({ ...tools.payPath(api.url), connections: 20, amount: PATHS * 3, timeout: 10 });
      if (paid.non2xx > 0 || paid.errors > 0) {
        throw new Error(`queueing the backlog: ${paid.non2xx} non-2xx answers, ${paid.errors} errors`);
      }
      expected = (paid.requests.total / 3) * 2;
    } finally {
      await tools.stop(api);
    }
    process.stdout.write(`  sqlite   webhook backlog queued: ${expected} events; a worker drains it … `);
    const worker = await tools.start(cobroArgs('cobro', 'worker'), env, logFile);
    try {
      const first = await receiver.first(60_000);
      const cpuAtFirst = tools.cpuTimeUs(worker.child.pid);
      const deadline = Date.now() + 180_000;
      while (receiver.count() < expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (receiver.lastAt() - first) / 1000;
      const cpuAtEnd = tools.cpuTimeUs(worker.child.pid);
      const events = receiver.count();
      const result: DrainResult = {
        events,
        seconds,
        cpuUsPerEvent: cpuAtFirst !== null && cpuAtEnd !== null && events > 1 ? (cpuAtEnd - cpuAtFirst) / events : null,
        complete: events >= expected,
      };
      process.stdout.write(`${events} in ${seconds.toFixed(2)} s (${Math.round(events / seconds)} events/s)\n`);
      return result;
    } finally {
      await tools.stop(worker);
    }
  } finally {
    await receiver.close();
  }
}

async function startCountingReceiver() {
  let received = 0;
  let firstAt = 0;
  let lastAt = 0;
  let onFirst: (() => void) | null = null;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      lastAt = performance.now();
      if (firstAt === 0) {
        firstAt = lastAt;
        onFirst?.();
      }
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    count: () => received,
    lastAt: () => lastAt,
    first: (timeoutMs: number) =>
      new Promise<number>((resolve, reject) => {
        if (firstAt !== 0) {
          resolve(firstAt);
          return;
        }
        const timer = setTimeout(() => reject(new Error('the worker delivered nothing')), timeoutMs);
        onFirst = () => {
          clearTimeout(timer);
          resolve(firstAt);
        };
      }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
