import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Repositories } from '../domain/repositories/repositories.ts';
import type { UnitOfWork } from '../domain/shared/unit-of-work.ts';
import { closablePool } from './closable-pool.ts';
import type { CredentialWatch, CredentialWatchEvents } from './credential-freshness.ts';
import { PostgresKeyRevocationListener, SqliteDataVersion } from './credential-freshness.ts';
import { GroupCommitWriter } from './group-commit.ts';
import { migrationProvider } from './migrations/index.ts';
import { OneStatementOnly } from './one-statement.ts';
import { makeRepositories } from './repositories/index.ts';
import { runDirectlyOnSqlite } from './repositories/prepared.ts';
import type { Database } from './schema.ts';

export type DatabaseKind = 'sqlite' | 'postgres';

export type DurabilitySettings = Record<string, string>;

/** An open database: the unit of work for services, plus what operations need (migrate, ping, close). */
export type OpenDatabase = {
  kind: DatabaseKind;
  uow: UnitOfWork;
  /** Kysely over committed data, for jobs and tests that need a query the repositories do not offer. */
  db: Kysely<Database>;
  /**
   * A transaction for tables that are not the domain's (test mode's card processor keeps its
   * records beside ours): `fn` gets Kysely inside it. On SQLite it joins the writer's queue.
   */
  write<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * As `write`, for writes of one statement each, atomic on their own: on PostgreSQL they run
   * without BEGIN and COMMIT, two round trips fewer. A read after the statement sees what is
   * committed then, not a snapshot shared with it. (The repositories' form, which refuses a
   * second statement instead, is UnitOfWork.oneStatement.)
   */
  writeAlone<T>(fn: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /**
   * How many units of work a batch job (billing) should run side by side. SQLite: enough for
   * group commit to share its fsyncs. PostgreSQL: one short of the pool, leaving a connection
   * for the process's other work.
   */
  sideBySide: number;
  migrate(): Promise<void>;
  ping(): Promise<void>;
  durability(): Promise<DurabilitySettings>;
  /**
   * Starts noticing key changes made by other processes, for the key cache (see
   * CredentialFreshness): SQLite polls `PRAGMA data_version`, PostgreSQL opens a `LISTEN`
   * connection (resolved once its first attempt is over). Closed by `close()` at the latest.
   */
  watchCredentials(events?: CredentialWatchEvents): Promise<CredentialWatch>;
  close(): Promise<void>;
};

export type OpenOptions = {
  url: string;
  /** SQLite `synchronous`: FULL (default) makes every acknowledged commit survive power loss. */
  sqliteSynchronous?: 'FULL' | 'EXTRA' | 'NORMAL';
  pgPoolSize?: number;
};

// BIGINT (int8) as bigint: money and epoch milliseconds are never squeezed through a float.
pg.types.setTypeParser(20, (v: string) => BigInt(v));

export async function openDatabase(options: OpenOptions): Promise<OpenDatabase> {
  if (options.url.startsWith('postgres://') || options.url.startsWith('postgresql://')) {
    return openPostgres(options);
  }
  if (options.url.startsWith('sqlite:')) {
    return openSqlite(options);
  }
  throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got ${options.url.split(':')[0]}:`);
}

/** What Kysely's SQLite driver calls on a statement. */
type DriverStatement = Pick<SqliteDatabase.Statement, 'reader' | 'all' | 'run' | 'iterate'>;

/**
 * A reading statement that returns rows as arrays (better-sqlite3's raw mode) and makes the
 * row objects here. better-sqlite3 sets an object's properties one by one from C++; an object
 * literal compiled for the statement's own columns gets one V8 shape and one fast path per
 * statement (a loop shared by every statement went megamorphic), and took about a third off
 * reading a preference by id. Column names come from our own SQL, quoted by JSON.stringify.
 */
function objectRows(stmt: SqliteDatabase.Statement): DriverStatement {
  const names = stmt.columns().map((c) => c.name);
  const rows = stmt.raw(true);
  // Later columns win over earlier ones of the same name, as in better-sqlite3's own objects.
  const fields = [...new Map(names.map((name, i) => [name, i])).entries()].map(
    ([name, i]) => `${JSON.stringify(name)}: v[${i}]`,
  );
  const toObject = new Function('v', `return { ${fields.join(', ')} };`) as (v: unknown[]) => Record<string, unknown>;
  return {
    reader: true,
    all: ((...params: unknown[]) =>
      (rows.all(...params) as unknown[][]).map(toObject)) as SqliteDatabase.Statement['all'],
    run: ((...params: unknown[]) => rows.run(...params)) as SqliteDatabase.Statement['run'],
    iterate: function* (...params: unknown[]) {
      for (const values of rows.iterate(...params) as IterableIterator<unknown[]>) {
        yield toObject(values);
      }
    } as SqliteDatabase.Statement['iterate'],
  };
}

/**
 * better-sqlite3 prepares a statement per call through Kysely; caching them by SQL text
 * saves that work on every request (statements are reused, never iterated concurrently).
 */
function cachingConnection(raw: SqliteDatabase.Database) {
  const statements = new Map<string, DriverStatement>();
  return {
    prepare(text: string): DriverStatement {
      let stmt = statements.get(text);
      if (!stmt) {
        const prepared = raw.prepare(text);
        stmt = prepared.reader ? objectRows(prepared) : prepared;
        if (statements.size < 500) {
          statements.set(text, stmt);
        }
      }
      return stmt;
    },
    close() {
      raw.close();
    },
  };
}

function openSqliteConnection(path: string, synchronous: string): SqliteDatabase.Database {
  const raw = new SqliteDatabase(path);
  raw.defaultSafeIntegers(true);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`synchronous = ${synchronous}`);
  raw.pragma('foreign_keys = ON');
  // Another process (the command line) may hold the write lock for a moment.
  raw.pragma('busy_timeout = 5000');
  return raw;
}

/** Checkpoint every this many WAL pages (SQLite's default is 1,000): see writerSettings. */
export const WAL_CHECKPOINT_PAGES = 4000;

/**
 * What only the writer connection needs; neither touches durability (the WAL, synced on every
 * COMMIT, is what recovery reads).
 *
 * - Group commit runs each unit in a SAVEPOINT, and SQLite keeps the pages a savepoint may roll
 *   back in a sub-journal that spills to a temporary file past 64 KiB: with every unit's pages
 *   copied there, that file took two-thirds of a card payment's write system calls. Held in
 *   memory (`temp_store`), it is never written; it only matters until its transaction ends, and
 *   a unit changes a few dozen pages (migrations, which may change a whole table, keep the file).
 * - The commit that takes the WAL past `wal_autocheckpoint` pages copies them into the database
 *   file and syncs it, on the event loop. At 1,000 pages that was every few commits under a
 *   payment load, each copying again the pages every commit changes (the tails of the tables
 *   and of the time-ordered indexes); at 4,000 (a WAL of about 16 MiB) a quarter as often.
 */
function writerSettings(raw: SqliteDatabase.Database): void {
  raw.pragma('temp_store = MEMORY');
  raw.pragma(`wal_autocheckpoint = ${WAL_CHECKPOINT_PAGES}`);
}

/** The file of a `sqlite:` DATABASE_URL (`sqlite:./data/cobro.db`, `sqlite:///abs/path.db`). */
export function sqlitePathOf(url: string): string {
  return url.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
}

async function openSqlite(options: OpenOptions): Promise<OpenDatabase> {
  const path = sqlitePathOf(options.url);
  if (path.length === 0 || path === ':memory:') {
    throw new Error(
      'DATABASE_URL: SQLite needs a file path (sqlite:./data/cobro.db); in-memory databases are not durable',
    );
  }
  mkdirSync(dirname(path), { recursive: true });
  const synchronous = options.sqliteSynchronous ?? 'FULL';
  // One connection writes (and batches commits), the other reads committed data only (WAL).
  const writerRaw = openSqliteConnection(path, synchronous);
  writerSettings(writerRaw);
  const readerRaw = openSqliteConnection(path, synchronous);
  const writerConnection = cachingConnection(writerRaw);
  const readerConnection = cachingConnection(readerRaw);
  const writerDb = new Kysely<Database>({
    dialect: new SqliteDialect({ database: writerConnection as unknown as SqliteDatabase.Database }),
  });
  const readerDb = new Kysely<Database>({
    dialect: new SqliteDialect({ database: readerConnection as unknown as SqliteDatabase.Database }),
  });
  runDirectlyOnSqlite(writerDb, writerConnection);
  runDirectlyOnSqlite(readerDb, readerConnection);
  const writer = new GroupCommitWriter(writerRaw, makeRepositories(writerDb));
  const read = makeRepositories(readerDb);
  // Polled on the writer: its own commits (all of this process's) do not change data_version.
  const dataVersion = new SqliteDataVersion(writerRaw);
  // Inside a unit of the writer's, statements on writerDb run in that unit's transaction; a
  // single statement is a unit like any other here (group commit makes it no dearer).
  const write = <T>(fn: (db: Kysely<Database>) => Promise<T>) => writer.run(() => fn(writerDb));
  return {
    kind: 'sqlite',
    sideBySide: 16,
    db: readerDb,
    uow: { transaction: (fn) => writer.run(fn), oneStatement: (fn) => writer.run(fn), read },
    write,
    writeAlone: write,
    async migrate() {
      // Migrations run on the writer, outside group commit, before any request is served. One
      // may rewrite a whole table in one statement, whose statement journal could then hold
      // every page of it: for them it spills to a temporary file, as SQLite does by default.
      writerRaw.pragma('temp_store = DEFAULT');
      try {
        const result = await new Migrator({ db: writerDb, provider: migrationProvider }).migrateToLatest();
        if (result.error) {
          throw result.error;
        }
      } finally {
        writerRaw.pragma('temp_store = MEMORY');
      }
    },
    async ping() {
      await sql`select 1`.execute(readerDb);
    },
    async durability() {
      return {
        journal_mode: String(writerRaw.pragma('journal_mode', { simple: true })),
        synchronous: String(writerRaw.pragma('synchronous', { simple: true })),
      };
    },
    async watchCredentials() {
      return dataVersion;
    },
    async close() {
      await dataVersion.close();
      await writer.drain();
      await readerDb.destroy();
      await writerDb.destroy();
    },
  };
}

async function openPostgres(options: OpenOptions): Promise<OpenDatabase> {
  const poolSize = options.pgPoolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: options.url,
    max: poolSize,
    // Acknowledged commits must be on disk: never trust a server default for this.
    options: '-c synchronous_commit=on',
  });
  // A connection dropped by the server is replaced by the pool; without these listeners it crashes
  // the process. The pool listens only on idle connections: one checked out (a transaction between
  // two statements) when the server dies emits 'error' on the client itself. Its statement still
  // fails through its own promise, and the pool discards the connection when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: closablePool(pool) }) });
  const read: Repositories = makeRepositories(db);
  const listeners = new Set<PostgresKeyRevocationListener>();
  return {
    kind: 'postgres',
    sideBySide: Math.max(1, poolSize - 1),
    db,
    uow: {
      transaction: (fn) => db.transaction().execute((trx) => fn(makeRepositories(trx))),
      oneStatement: (fn) => fn(makeRepositories(db.withPlugin(new OneStatementOnly()))),
      read,
    },
    write: (fn) => db.transaction().execute(fn),
    writeAlone: (fn) => fn(db),
    async migrate() {
      const result = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
      if (result.error) {
        throw result.error;
      }
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async durability() {
      const sc = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db);
      const fs = await sql<{ fsync: string }>`show fsync`.execute(db);
      return { synchronous_commit: sc.rows[0]?.synchronous_commit ?? '', fsync: fs.rows[0]?.fsync ?? '' };
    },
    async watchCredentials(events) {
      const listener = new PostgresKeyRevocationListener(options.url, events);
      listeners.add(listener);
      await listener.start();
      return listener;
    },
    async close() {
      await Promise.all([...listeners].map((listener) => listener.close()));
      await db.destroy();
    },
  };
}
