import type { Repositories } from '../repositories/repositories.ts';

/**
 * Transactions as a port. Services decide what is atomic; the database layer decides how
 * (on SQLite several concurrent units share one durable commit, on PostgreSQL each unit is
 * its own transaction). `fn` must not wait on anything but the repositories: no provider
 * calls, no timers, or it holds up every unit committed with it.
 */
export interface UnitOfWork {
  transaction<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * A unit of exactly one statement (one insert, one update), atomic on its own: on PostgreSQL it
   * runs without BEGIN and COMMIT, two round trips fewer; on SQLite it is a unit like any other
   * (group commit makes it no dearer). A second statement in `fn` would commit apart from the
   * first, so it is refused (an error, which the tests of that path then show).
   */
  oneStatement<T>(fn: (repos: Repositories) => Promise<T>): Promise<T>;
  /** Repositories outside any transaction, reading committed data only. */
  readonly read: Repositories;
}
