import type { Repositories } from '../domain/repositories/repositories.ts';
import type { UnitOfWork } from '../domain/shared/unit-of-work.ts';

type Write = (repos: Repositories) => Promise<void>;
type Pending = { write: Write; resolve: () => void; reject: (error: unknown) => void };

export type BatchedWritesOptions = {
  /** How long the first write of a batch waits for others to join it. */
  maxWaitMs: number;
  /** A batch this large is written at once. */
  maxBatch: number;
};

/**
 * Writes that may wait a few milliseconds, gathered into one transaction: a busy job (webhook
 * delivery records two rows per attempt) then pays one commit, and on SQLite one fsync, per
 * batch instead of per write. Each write's promise settles once its batch has committed, so a
 * caller still knows its write is durable before it goes on.
 *
 * If a batch fails, each of its writes is tried again in a transaction of its own, so one bad
 * write fails alone rather than taking its neighbours with it.
 */
export class BatchedWrites {
  private pending: Pending[] = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly uow: UnitOfWork,
    private readonly options: BatchedWritesOptions,
  ) {}

  write(write: Write): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ write, resolve, reject });
      if (this.pending.length >= this.options.maxBatch) {
        this.flush();
      } else {
        this.timer ??= setTimeout(() => this.flush(), this.options.maxWaitMs);
      }
    });
  }

  private flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) {
      return;
    }
    void this.commit(batch);
  }

  private async commit(batch: Pending[]): Promise<void> {
    try {
      await this.uow.transaction(async (repos) => {
        for (const { write } of batch) {
          await write(repos);
        }
      });
    } catch (error) {
      if (batch.length > 1) {
        await Promise.all(batch.map((one) => this.commit([one])));
      } else {
        batch[0]?.reject(error);
      }
      return;
    }
    for (const { resolve } of batch) {
      resolve();
    }
  }
}
