import type { Logger } from 'pino';
import type { IdempotencyService } from '../domain/idempotency/idempotency.service.ts';
import type { Clock } from '../domain/shared/clock.ts';

/** Deletes idempotency records past their retention, a batch at a time, every few minutes. */
export class IdempotencySweeper {
  private readonly timer: NodeJS.Timeout;

  constructor(idempotency: IdempotencyService, clock: Clock, logger: Logger, everyMs = 5 * 60_000) {
    this.timer = setInterval(() => {
      idempotency.sweep(clock.now().getTime()).catch((error: unknown) => {
        logger.error({ err: error }, 'idempotency sweep failed');
      });
    }, everyMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }
}
