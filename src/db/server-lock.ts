import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sqlitePathOf } from './database.ts';

/** Refused at start: another serving process holds the SQLite database. */
export class ServerLockError extends Error {}

export type ServerLock = { release(): void };

/**
 * On SQLite, one serving process per database file: two would each batch commits, cache keys
 * and run the jobs as if alone (the jobs' leases are safe across processes only on PostgreSQL).
 *
 * The lock is a real operating-system lock that dies with its process, so a SIGKILL never leaves
 * it behind (unlike a pid file): an exclusive SQLite transaction, held open, on a small file
 * beside the database (`<db>.server-lock`). The command line's short commands do not take it and
 * run beside the server as before. PostgreSQL needs no lock: any number of processes may serve.
 */
export function lockSqliteServer(databaseUrl: string): ServerLock | null {
  if (!databaseUrl.startsWith('sqlite:')) {
    return null;
  }
  const path = sqlitePathOf(databaseUrl);
  const lockPath = `${path}.server-lock`;
  mkdirSync(dirname(lockPath), { recursive: true });
  const lock = new SqliteDatabase(lockPath, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    lock.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    lock.close();
    if ((error as { code?: string }).code === 'SQLITE_BUSY') {
      throw new ServerLockError(
        `another Cobro process is already serving the SQLite database ${path}. SQLite is served by one process at a time: stop the other one first (the command line's short commands may run beside it), or use PostgreSQL to run several processes.`,
      );
    }
    throw error;
  }
  return {
    release() {
      if (lock.open) {
        lock.exec('ROLLBACK');
        lock.close();
      }
    },
  };
}
