/**
 * Webhook delivery capacity: how fast one `cobro worker` sends a backlog of events to a receiver
 * that answers 200 at once. An API process with `--jobs=off` takes payments (create → pay) until
 * the backlog is queued and stops; then a worker starts on the same database, pinned to the
 * server's CPU, and the clock runs from the first event the receiver gets to the last. Measured
 * this way the row is the delivery pipeline's own rate, not the rate at which a loaded API
 * produces events (what the row measured when delivery ran beside the pay path).
 */
import type { ChildProcess } from 'node:child_process';
import autocannon from 'autocannon';
import { cobroArgs } from '../test/support/dist.ts';
import type { Receiver } from './run.ts';

type Server = { child: ChildProcess; url: string; stderr: () => string };

export type DrainTools = {
  start(args: string[], env: Record<string, string>, stdoutFile: string | null): Promise<Server>;
  waitReady(server: Server, path: string): Promise<void>;
  stop(server: Server): Promise<void>;
  cpuTimeUs(pid: number | undefined): number | null;
  /** autocannon options for one create → pay → read path per connection loop. */
  payPath(url: string): autocannon.Options;
  api(url: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>>;
  /** A receiver answering 200 at once (bench/run.ts's). */
  receiver(): Promise<Receiver>;
};

export type DrainResult = { events: number; seconds: number; cpuUsPerEvent: number | null; complete: boolean };

/** Each paid path queues two events (OPENED, CLOSED) for the endpoint. */
const PATHS = 4000;

export async function benchWebhookDrain(
  env: Record<string, string>,
  logFile: string,
  tools: DrainTools,
  /** Where the worker writes a V8 CPU profile (`--cpu-prof`), if anywhere. */
  profileDir?: string,
): Promise<DrainResult> {
  const receiver = await tools.receiver();
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
    const profile = profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
    const worker = await tools.start([...profile, ...cobroArgs('cobro', 'worker')], env, logFile);
    try {
      const startedBy = Date.now() + 60_000;
      while (receiver.count() === 0) {
        if (Date.now() > startedBy) {
          throw new Error(`the worker delivered nothing in a minute:\n${worker.stderr()}`);
        }
        await new Promise((r) => setTimeout(r, 5));
      }
      const cpuAtFirst = tools.cpuTimeUs(worker.child.pid);
      const deadline = Date.now() + 180_000;
      while (receiver.count() < expected && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
      }
      const seconds = (receiver.lastAt() - receiver.firstAt()) / 1000;
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
