import type SqliteDatabase from 'better-sqlite3';
import type { Repositories } from '../domain/repositories/repositories.ts';

type Unit = {
  fn: (repos: Repositories) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

/** Enough units to fill one commit without making the first of them wait long. */
const MAX_UNITS_PER_COMMIT = 256;

/**
 * Group commit for SQLite. With `synchronous=FULL` every COMMIT waits for an fsync, and the
 * disk manages a few thousand a second, so one transaction per request caps throughput near
 * that. Instead, units of work that arrive together run one after another inside a single
 * transaction, each in its own SAVEPOINT (a failing unit rolls back alone), and all of them
 * are answered only after the one COMMIT that holds their rows is durable.
 *
 * Units run strictly in turn on the one writer connection, so each sees the ones before it,
 * exactly as if they had committed separately.
 */
export class GroupCommitWriter {
  private queue: Unit[] = [];
  private scheduled = false;
  private running: Promise<void> | null = null;

  // Prepared once: exec() compiles its SQL on every call, and each unit runs two of these.
  private readonly sql: Record<
    'begin' | 'savepoint' | 'release' | 'rollbackTo' | 'commit' | 'rollback',
    SqliteDatabase.Statement
  >;

  constructor(
    private readonly raw: SqliteDatabase.Database,
    private readonly repos: Repositories,
  ) {
    this.sql = {
      begin: raw.prepare('BEGIN IMMEDIATE'),
      savepoint: raw.prepare('SAVEPOINT unit'),
      release: raw.prepare('RELEASE unit'),
      rollbackTo: raw.prepare('ROLLBACK TO unit'),
      commit: raw.prepare('COMMIT'),
      rollback: raw.prepare('ROLLBACK'),
    };
  }

  run<T>(fn: (repos: Repositories) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  /** Resolves once every unit queued so far has committed or failed. */
  async drain(): Promise<void> {
    while (this.running || this.queue.length > 0) {
      if (this.running) {
        await this.running;
      } else {
        this.schedule();
        await new Promise((r) => setImmediate(r));
      }
    }
  }

  private schedule(): void {
    if (this.scheduled || this.running) {
      return;
    }
    this.scheduled = true;
    // setImmediate lets every request already read from the sockets join this commit.
    setImmediate(() => {
      this.scheduled = false;
      this.running = this.flush().finally(() => {
        this.running = null;
        if (this.queue.length > 0) {
          this.schedule();
        }
      });
    });
  }

  private async flush(): Promise<void> {
    const batch = this.queue.splice(0, MAX_UNITS_PER_COMMIT);
    if (batch.length === 0) {
      return;
    }
    const outcomes: { ok: boolean; value: unknown }[] = [];
    try {
      this.sql.begin.run();
    } catch (error) {
      for (const unit of batch) {
        unit.reject(error);
      }
      return;
    }
    for (const unit of batch) {
      this.sql.savepoint.run();
      try {
        const value = await unit.fn(this.repos);
        this.sql.release.run();
        outcomes.push({ ok: true, value });
      } catch (error) {
        // Some errors (disk full, I/O) end the whole transaction; the others roll back this unit only.
        if (this.raw.inTransaction) {
          this.sql.rollbackTo.run();
          this.sql.release.run();
        }
        outcomes.push({ ok: false, value: error });
      }
    }
    try {
      if (!this.raw.inTransaction) {
        throw new Error('the group transaction was aborted by SQLite');
      }
      this.sql.commit.run();
    } catch (error) {
      if (this.raw.inTransaction) {
        this.sql.rollback.run();
      }
      // Nothing of this batch is durable: every unit fails, including those that had succeeded.
      for (const unit of batch) {
        unit.reject(error);
      }
      return;
    }
    batch.forEach((unit, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) {
        unit.resolve(outcome.value);
      } else {
        unit.reject(outcome?.value);
      }
    });
  }
}
