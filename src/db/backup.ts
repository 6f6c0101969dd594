import { existsSync, renameSync, rmSync, statSync } from 'node:fs';
import SqliteDatabase from 'better-sqlite3';
import { sqlitePathOf } from './database.ts';

export type BackupResult = { path: string; bytes: number; pages: number; integrity: string };

/**
 * A consistent copy of the SQLite database while the server keeps running, through SQLite's
 * online backup API (better-sqlite3's `backup()`).
 *
 * The copy is made in one step, inside one read transaction: in WAL mode that transaction sees
 * one committed state and does not block the server's writes. (Copied a few pages per step, as
 * the API's default does, a backup restarts from the beginning whenever another process commits,
 * and under steady load it might never finish.) It is written beside the target and renamed over
 * it only once complete and checked by `PRAGMA integrity_check`, so a crash or a full disk
 * mid-backup never leaves a half-written file under the target's name.
 */
export async function backupSqlite(databaseUrl: string, to: string): Promise<BackupResult> {
  if (!databaseUrl.startsWith('sqlite:')) {
    throw new Error(
      'backup copies a SQLite database; for PostgreSQL use its own tools (pg_dump, or base backups with WAL archiving): see docs/operations.md',
    );
  }
  const source = sqlitePathOf(databaseUrl);
  if (!existsSync(source)) {
    throw new Error(`there is no database at ${source}`);
  }
  const partial = `${to}.partial-${process.pid}`;
  const db = new SqliteDatabase(source, { fileMustExist: true, timeout: 5000 });
  try {
    let pages = 0;
    await db.backup(partial, {
      progress: (info) => {
        pages = info.totalPages;
        // Everything in the next step: one read transaction, one consistent state.
        return info.totalPages + 1_000_000;
      },
    });
    const copy = new SqliteDatabase(partial, { fileMustExist: true });
    let integrity: string;
    try {
      integrity = String(copy.pragma('integrity_check', { simple: true }));
      // A single self-contained file: no -wal beside it to forget when it is moved.
      copy.pragma('journal_mode = DELETE');
    } finally {
      copy.close();
    }
    if (integrity !== 'ok') {
      throw new Error(`the copy failed its integrity check (${integrity}); nothing was written to ${to}`);
    }
    renameSync(partial, to);
    return { path: to, bytes: statSync(to).size, pages, integrity };
  } finally {
    db.close();
    rmSync(partial, { force: true });
  }
}
