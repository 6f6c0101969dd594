import type { Logger } from 'pino';

type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

/**
 * Runs background jobs on fixed intervals, one run of a job at a time (a slow run is never
 * overlapped by the next). Failures are logged and the job runs again on its next tick.
 */
export class JobRunner {
  private readonly timers: NodeJS.Timeout[] = [];
  /** The run in progress of each job, by name. */
  private readonly running = new Map<string, Promise<void>>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  add(job: Job): void {
    const timer = setInterval(() => this.tick(job), job.everyMs);
    timer.unref();
    this.timers.push(timer);
  }

  private tick(job: Job): void {
    if (this.stopped || this.running.has(job.name)) {
      return;
    }
    // Started on the next microtask, so the run is recorded before it can finish.
    const run = Promise.resolve()
      .then(() => job.run())
      .then(
        () => undefined,
        (error: unknown) => this.logger.error({ err: error, job: job.name }, 'job failed'),
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
