import type { Repositories } from '../repositories.ts';

/**
 * Transactions as a port. Services decide what is atomic; the database layer decides how
 * (on SQLite several concurrent units share one durable commit, on PostgreSQL each unit is
 * its own transaction). `fn` must not wait on anything but the repositories: no provider
 * calls, no timers, or it holds up every unit committed with it.
 */
export interface UnitOfWork {
  transaction<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /** Repositories outside any transaction, reading committed data only. */
  readonly read: Repositories;
}
