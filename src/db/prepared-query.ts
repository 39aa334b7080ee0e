/**
 * A Kysely query built and compiled once per engine, then run with fresh values. Building and
 * compiling costs 10–15 µs of CPU per query on every call, a large share of a hot path such as
 * order intake; the SQL text of a given query shape never changes, only its parameters.
 *
 * How: the query is built once with a sentinel string in place of each named value; the
 * compiled parameter list then shows where each value goes. Values that are not named stay
 * the constants they were when built. A sentinel that ends up inside the SQL text instead of
 * the parameters (a value Kysely inlines) is refused when the query is first compiled.
 */
import {
  type Compilable,
  type CompiledQuery,
  type Kysely,
  PostgresAdapter,
  type Transaction,
} from "kysely";
import type { Dialect, SqliteDirect } from "./connect.js";
import { nameStatement } from "./named-statements.js";
import type { Database } from "./schema.js";
import type { StatementCache } from "./sqlite-statement-cache.js";

/** What a prepared query runs on: the database or a transaction. */
export type Executor = Kysely<Database> | Transaction<Database>;

interface Compiled {
  query: CompiledQuery;
  /** For each parameter: the index of the named value it takes, or -1 for a constant. */
  slots: number[];
}

/** Run like Kysely's own queries (same names); the engine is read off the executor. */
export interface PreparedQuery<V, R> {
  execute(db: Executor, values: V): Promise<R[]>;
  executeTakeFirst(db: Executor, values: V): Promise<R | undefined>;
  /**
   * SQLite, at once on one of the driver's connections (inside `transactSync` for the writer,
   * or the reader for a read of committed data): the rows a reading statement returns.
   */
  allSync(sqlite: SqliteDirect, connection: StatementCache, values: V): R[];
  /** The same for a writing statement: the number of rows it changed. */
  runSync(sqlite: SqliteDirect, connection: StatementCache, values: V): number;
}

/** Which engine a Kysely instance or transaction talks to. */
export function dialectOf(db: Executor): Dialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? "postgres" : "sqlite";
}

export function preparedQuery<V extends object, R>(
  names: readonly (keyof V & string)[],
  build: (db: Executor, values: V) => Compilable<R>,
): PreparedQuery<V, R> {
  const compiled = new Map<Dialect, Compiled>();

  const compile = (db: Executor): Compiled => {
    const sentinels = names.map((name, i) => `\u0000velvet-slot-${i}-${name}\u0000`);
    const values = Object.fromEntries(names.map((name, i) => [name, sentinels[i]])) as V;
    const query = build(db, values).compile();
    if (sentinels.some((s) => query.sql.includes(s))) {
      throw new Error(`preparedQuery: a named value was inlined into the SQL: ${query.sql}`);
    }
    const slots = query.parameters.map((p) => sentinels.indexOf(p as string));
    const unused = names.filter((_, i) => !slots.includes(i));
    if (unused.length > 0) throw new Error(`preparedQuery: unused values ${unused.join(", ")}`);
    return { query, slots };
  };

  const execute = async (db: Executor, values: V): Promise<R[]> => {
    const dialect = dialectOf(db);
    let entry = compiled.get(dialect);
    if (entry === undefined) {
      entry = compile(db);
      compiled.set(dialect, entry);
      // On PostgreSQL each pooled connection parses and plans it once (named-statements.ts).
      if (dialect === "postgres") nameStatement(entry.query.sql);
    }
    const { query, slots } = entry;
    const parameters = slots.map((slot, i) =>
      slot === -1 ? query.parameters[i] : values[names[slot] as keyof V],
    );
    const result = await db.executeQuery<R>({ ...query, parameters } as CompiledQuery<R>);
    return result.rows;
  };

  /** SQLite's SQL text and its parameters for these values. */
  const bind = (sqlite: SqliteDirect, values: V): [string, unknown[]] => {
    let entry = compiled.get("sqlite");
    if (entry === undefined) {
      entry = compile(sqlite.kysely);
      compiled.set("sqlite", entry);
    }
    const { query, slots } = entry;
    const parameters = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i] as number;
      parameters[i] = slot === -1 ? query.parameters[i] : values[names[slot] as keyof V];
    }
    return [query.sql, parameters];
  };

  return {
    execute,
    executeTakeFirst: async (db, values) => (await execute(db, values))[0],
    allSync: (sqlite, connection, values) => {
      const [text, parameters] = bind(sqlite, values);
      return connection.get(text).all(parameters) as R[];
    },
    runSync: (sqlite, connection, values) => {
      const [text, parameters] = bind(sqlite, values);
      return connection.get(text).run(parameters).changes;
    },
  };
}
