import type {
  Compilable,
  CompiledQuery,
  Insertable,
  InsertQueryBuilder,
  InsertResult,
  Kysely,
  QueryResult,
} from 'kysely';
import type { Database } from '../schema.ts';

/** Stands for the named argument while the query is built; replaced by its value on every run. */
type Param<Args> = <K extends keyof Args & string>(name: K) => Args[K];

const MARK = '\u0000cobro-param:';

/** What runs a compiled statement on a SQLite connection without Kysely's executor in between. */
export type DirectSqlite = {
  prepare(sql: string): {
    reader: boolean;
    all(...params: unknown[]): unknown[];
    run(...params: unknown[]): { changes: number | bigint };
  };
};

const direct = new WeakMap<Kysely<Database>, DirectSqlite>();

/**
 * Lets prepared queries on this SQLite Kysely instance call the connection directly. Only for
 * a connection no Kysely transaction ever runs on (the reader, and the group-commit writer,
 * which orders its units itself), since that is what the executor's connection lock is for.
 */
export function runDirectlyOnSqlite(db: Kysely<Database>, connection: DirectSqlite): void {
  direct.set(db, connection);
}

type Template<Row> = { compiled: CompiledQuery<Row>; slots: (string | null)[] };

/**
 * A query built and compiled once per SQL dialect, then run with new argument values.
 *
 * Kysely builds an immutable operation tree and compiles it to SQL on every call; on a
 * primary-key read that costs more than SQLite's own work, so the statements every merchant
 * integration runs most (create and read a preference) skip it. The builder runs once with
 * placeholders (`$('id')`) where the arguments go; the compiled parameters that hold a
 * placeholder are replaced by the argument of that name on each run, and constants written
 * into the builder stay as compiled. The SQL text never changes, so the statement caches
 * (better-sqlite3's, PostgreSQL's) do their work too.
 *
 * Only for queries of fixed shape: a builder that branches on an argument, or expands a list,
 * would be frozen in the shape of its first run.
 */
export class PreparedQuery<Args extends Record<string, unknown>, Row = never> {
  // Keyed by the dialect's adapter class: a transaction's Kysely instance compiles the same SQL.
  private readonly templates = new Map<unknown, Template<Row>>();

  constructor(private readonly build: (db: Kysely<Database>, $: Param<Args>) => Compilable<Row>) {}

  execute(db: Kysely<Database>, args: Args): Promise<QueryResult<Row>> {
    // Not an async function (one promise fewer on the hot path), so errors are turned into rejections here.
    try {
      return this.run(db, args);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async first(db: Kysely<Database>, args: Args): Promise<Row | undefined> {
    return (await this.execute(db, args)).rows[0];
  }

  private run(db: Kysely<Database>, args: Args): Promise<QueryResult<Row>> {
    const template = this.templates.get(db.getExecutor().adapter.constructor) ?? this.compile(db, args);
    const compiled = template.compiled.parameters;
    const parameters = new Array<unknown>(compiled.length);
    for (let i = 0; i < compiled.length; i++) {
      const slot = template.slots[i];
      parameters[i] = slot === null || slot === undefined ? compiled[i] : args[slot];
    }
    const connection = direct.get(db);
    if (connection) {
      // Same answers as Kysely's SQLite driver gives, without its connection lock and promise chain.
      const stmt = connection.prepare(template.compiled.sql);
      if (stmt.reader) {
        return Promise.resolve({ rows: stmt.all(parameters) as Row[] });
      }
      return Promise.resolve({ rows: [], numAffectedRows: BigInt(stmt.run(parameters).changes) });
    }
    return db.executeQuery<Row>({ ...template.compiled, parameters });
  }

  private compile(db: Kysely<Database>, args: Args): Template<Row> {
    const mark = ((name: string) => `${MARK}${name}`) as Param<Args>;
    const compiled = this.build(db, mark).compile();
    const slots = compiled.parameters.map((value) =>
      typeof value === 'string' && value.startsWith(MARK) ? value.slice(MARK.length) : null,
    );
    // An argument the builder forgot would silently never reach the database.
    for (const name of Object.keys(args)) {
      if (!slots.includes(name)) {
        throw new Error(`prepared query: argument ${name} is not used in ${compiled.sql}`);
      }
    }
    const template = { compiled, slots };
    this.templates.set(db.getExecutor().adapter.constructor, template);
    return template;
  }
}

/** Whether a write changed any row. */
export function changedRows(result: QueryResult<unknown>): boolean {
  return Number(result.numAffectedRows ?? 0) > 0;
}

/**
 * A query whose shape depends on which columns a call names (an INSERT's values, an UPDATE's SET
 * list): one PreparedQuery per set of columns, each compiled on its first run (see PreparedQuery).
 * The builder is given those columns with their placeholders (`{ column: $(column) }`), to put
 * where the values go; each call's arguments carry the values under the same names.
 */
export class PreparedShapes<Args extends Record<string, unknown>, Row = never> {
  private readonly byShape = new Map<string, PreparedQuery<Args, Row>>();

  constructor(
    private readonly build: (db: Kysely<Database>, $: Param<Args>, columns: Record<string, unknown>) => Compilable<Row>,
  ) {}

  execute(db: Kysely<Database>, columns: readonly string[], args: Args): Promise<QueryResult<Row>> {
    const signature = columns.join(',');
    let query = this.byShape.get(signature);
    if (!query) {
      const fixed = [...columns];
      query = new PreparedQuery<Args, Row>((qb, $) =>
        this.build(qb, $, Object.fromEntries(fixed.map((c) => [c, $(c as keyof Args & string)]))),
      );
      this.byShape.set(signature, query);
    }
    return query.execute(db, args);
  }

  async first(db: Kysely<Database>, columns: readonly string[], args: Args): Promise<Row | undefined> {
    return (await this.execute(db, columns, args)).rows[0];
  }
}

/**
 * A one-row INSERT into `table`, compiled once per set of columns given (see PreparedQuery):
 * each run names its columns by the keys of the row it is given, so a row built by one piece of
 * code always finds the statement its first run compiled, and no column can be left out of it.
 * `returning`, when given, adds what the statement answers (a RETURNING clause).
 */
export class PreparedInsert<T extends keyof Database & string, Row = never> {
  private readonly shapes: PreparedShapes<Record<string, unknown>, Row>;

  constructor(table: T, returning?: (insert: InsertQueryBuilder<Database, T, InsertResult>) => Compilable<Row>) {
    this.shapes = new PreparedShapes((qb, _$, columns) => {
      const insert = qb.insertInto(table).values(columns as never);
      return returning ? returning(insert) : (insert as Compilable<never>);
    });
  }

  execute(db: Kysely<Database>, row: Insertable<Database[T]>): Promise<QueryResult<Row>> {
    return this.shapes.execute(db, Object.keys(row), row as Record<string, unknown>);
  }

  async first(db: Kysely<Database>, row: Insertable<Database[T]>): Promise<Row | undefined> {
    return (await this.execute(db, row)).rows[0];
  }
}
