import type { Logger } from 'pino';

type Job = { name: string; everyMs: number; run: () => Promise<unknown> };

/**
 * Runs background jobs on fixed intervals, one run of a job at a time (a slow run is never
 * overlapped by the next). Failures are logged and the job runs again on its next tick.
 */
export class JobRunner {
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<string>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  add(job: Job): void {
    const timer = setInterval(() => void this.tick(job), job.everyMs);
    timer.unref();
    this.timers.push(timer);
  }

  private async tick(job: Job): Promise<void> {
    if (this.stopped || this.running.has(job.name)) {
      return;
    }
    this.running.add(job.name);
    try {
      await job.run();
    } catch (error) {
      this.logger.error({ err: error, job: job.name }, 'job failed');
    } finally {
      this.running.delete(job.name);
    }
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) {
      clearInterval(t);
    }
  }
}
