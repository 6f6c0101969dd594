import type { Logger } from 'pino';

/** A periodic job: its name (in the log), how often it runs, and one run. */
export type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

/** The longest a failing job waits before it is tried again. */
export const MAX_BACKOFF_MS = 30_000;

/**
 * Runs background jobs on fixed intervals, one run of a job at a time (a slow run is never
 * overlapped by the next), each on its own: a job that fails holds up no other. A job that fails waits twice as long after each failure in a row (up to
 * MAX_BACKOFF_MS) before it runs again, so a database or provider that is down is not hammered ten
 * times a second by every job, nor the log flooded; the first run that succeeds restores its
 * interval.
 */
export class JobRunner {
  private readonly timers: NodeJS.Timeout[] = [];
  /** The run in progress of each job, by name. */
  private readonly running = new Map<string, Promise<void>>();
  /** Failures in a row of each job, and when it may run again. */
  private readonly failing = new Map<string, { failures: number; notBefore: number }>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  add(job: Job): void {
    const timer = setInterval(() => this.tick(job), job.everyMs);
    timer.unref();
    this.timers.push(timer);
  }

  private tick(job: Job): void {
    const failing = this.failing.get(job.name);
    if (this.stopped || this.running.has(job.name) || (failing && Date.now() < failing.notBefore)) {
      return;
    }
    // Started on the next microtask, so the run is recorded before it can finish.
    const run = Promise.resolve()
      .then(() => job.run())
      .then(
        () => {
          if (this.failing.delete(job.name)) {
            this.logger.info({ job: job.name }, 'job recovered');
          }
        },
        (error: unknown) => {
          const failures = (this.failing.get(job.name)?.failures ?? 0) + 1;
          const waitMs = Math.min(job.everyMs * 2 ** failures, MAX_BACKOFF_MS);
          this.failing.set(job.name, { failures, notBefore: Date.now() + waitMs });
          this.logger.error({ err: error, job: job.name, failures, retryInMs: waitMs }, 'job failed');
        },
      )
      .finally(() => this.running.delete(job.name));
    this.running.set(job.name, run);
  }

  /** No run starts after this; resolves when the runs already going have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) {
      clearInterval(t);
    }
    await Promise.all(this.running.values());
  }
}
