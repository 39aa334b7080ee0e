/**
 * Opens the database named by the configuration: SQLite (better-sqlite3, WAL) or PostgreSQL
 * (pg pool). Callers get a Kysely instance and never branch on the engine except through
 * `dialect`, which the few engine-specific queries (job claiming) read.
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type DialectAdapter, type Driver, Kysely, SqliteAdapter, SqliteDialect } from "kysely";
import pg from "pg";
import { type DatabaseTarget, type PostgresTarget, postgresSessionRules } from "../config.js";
import { useNamedStatements } from "./named-statements.js";
import { VelvetPostgresDialect } from "./postgres-dialect.js";
import type { Database } from "./schema.js";
import { type CheckpointListener, startBackgroundCheckpoints } from "./sqlite-checkpoints.js";
import { DEFAULT_BUSY_TIMEOUT_MS, GroupCommitSqliteDriver } from "./sqlite-driver.js";
import { ThreadWriteLock } from "./thread-write-lock.js";

export type Dialect = "sqlite" | "postgres";

export interface Db {
  kysely: Kysely<Database>;
  /**
   * PostgreSQL: a few connections of their own for the order intake's one statement
   * (orders/submission-statement.ts), which only ever probes unique indexes and primary keys.
   * A named statement keeps the plan it got when first run (db/named-statements.ts), and these
   * connections always use PostgreSQL's generic plan (plan_cache_mode): left to choose, it plans
   * the first five runs for their values, and when those carried one submission or a few (low
   * load) a plan for so few rows looks cheaper than the generic one, so it goes on planning
   * every run, about 1 ms of PostgreSQL's CPU a statement, several times what running one costs.
   * On a new database the first plan is made while the tables are nearly empty and never
   * analysed, when PostgreSQL cannot tell the unique (store, e-mail) index from the (store,
   * created) one, nor an index probe from a scan; measured, that plan read the whole store for
   * every submission, 5 ms a statement at 3,000 customers and 55 ms at 22,000, until the next
   * ANALYZE. So these connections never scan a table where an index serves, and each drops its
   * cached plans (DISCARD PLANS) and plans again with the tables as they are by then: every time
   * its uses double, then every INDEXED_REPLAN_EVERY uses (replanDue). A plan is then never made
   * for tables less than about half their size (on a new database they grow with the uses), and
   * once a table has a few thousand rows the right index wins even without statistics.
   * Behind a transaction-mode pooler (openPostgres) none of this is kept on a connection: the
   * statement is unnamed and planned at every run for the tables as they are, which measured
   * takes the unique indexes from 3,000 customers on with no statistics (and scans below 300,
   * where a scan is cheaper): docs/operating.md, "Behind a connection pooler".
   * SQLite: the same as `kysely`.
   */
  indexed: Kysely<Database>;
  dialect: Dialect;
  /**
   * SQLite: the driver's synchronous side (its `reader`; transact-sync.ts for the writer), for
   * order intake's statements prepared once and run without Kysely's per-query machinery
   * (prepared-query.ts `runSync`). Null on PostgreSQL.
   */
  sqlite: SqliteDirect | null;
  close(): Promise<void>;
}

export interface SqliteDirect {
  /** Compiles the prepared queries' SQL (SQLite's dialect); never runs anything itself. */
  kysely: Kysely<Database>;
  driver: GroupCommitSqliteDriver;
  /**
   * The write lock this process's threads take in turn (thread-write-lock.ts): its buffer is
   * handed to a thread that opens the same file (`OpenOptions.sharedWriteLock`). Null in memory.
   */
  writeLock: ThreadWriteLock | null;
}

/**
 * Connections of `indexed` on PostgreSQL: the order intake's own, apart from the shared pool the
 * worker's jobs queue for: the batch statement, the members of a failed batch written again
 * alone (a few at once), the API-key lookups, store webhook deliveries and the shared limits'
 * leases (shared-limits-table.ts), which a provider call or a request waits on.
 */
export const INDEXED_POOL_MAX = 3;
/** Uses of an `indexed` connection between two re-plannings once past the doubling ones. */
export const INDEXED_REPLAN_EVERY = 200;

/**
 * Whether an `indexed` connection plans again before its `uses`-th use: at 2, 4, 8, … below
 * INDEXED_REPLAN_EVERY, then at each multiple of it. Each costs one queued round trip and the
 * next run's planning.
 */
export function replanDue(uses: number): boolean {
  if (uses < INDEXED_REPLAN_EVERY) return uses >= 2 && (uses & (uses - 1)) === 0;
  return uses % INDEXED_REPLAN_EVERY === 0;
}

export interface OpenOptions {
  /**
   * SQLite: checkpoint the WAL on a thread of its own (sqlite-checkpoints.ts), for long-running
   * processes; the function hears when checkpoints start failing and when they work again.
   */
  backgroundCheckpoints?: CheckpointListener;
  /**
   * SQLite: another thread of this process opened the file and writes to it (`SqliteDirect.writeLock`);
   * this connection takes the write lock in turn with it, after it (this is not the serving thread).
   */
  sharedWriteLock?: SharedArrayBuffer;
}

export function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Db {
  return target.kind === "sqlite"
    ? openSqlite(target.file, options, target.busyTimeoutMs)
    : openPostgres(target);
}

function openSqlite(
  file: string,
  options: OpenOptions,
  busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
): Db {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const writer = new SQLite(file);
  writer.pragma("journal_mode = WAL");
  writer.pragma("synchronous = NORMAL");
  writer.pragma("busy_timeout = 5000");
  writer.pragma("foreign_keys = ON");
  // Each transaction runs in a savepoint (sqlite-driver.ts), whose statement journal would
  // otherwise be a temporary file: in memory it costs a few µs instead of ~40 µs a transaction.
  writer.pragma("temp_store = MEMORY");
  // Deleted rows and freed pages are overwritten with zeros, so an erased person's data is not
  // left behind in free space of the file (features/privacy/scrub-database-files.ts).
  writer.pragma("secure_delete = ON");
  // From here on the writer never waits inside SQLite (which would block the event loop): the
  // driver waits for another process's write lock asynchronously (sqlite-driver.ts).
  writer.pragma("busy_timeout = 0");
  // A second connection serves reads outside transactions (see sqlite-driver.ts).
  let reader: SQLite.Database | null = null;
  if (file !== ":memory:") {
    reader = new SQLite(file);
    reader.pragma("busy_timeout = 5000");
    reader.pragma("query_only = ON");
  }
  const checkpoints =
    options.backgroundCheckpoints !== undefined && reader !== null
      ? startBackgroundCheckpoints(writer, file, options.backgroundCheckpoints)
      : null;
  const threads =
    reader === null
      ? null
      : new ThreadWriteLock(
          { urgent: options.sharedWriteLock === undefined },
          options.sharedWriteLock,
        );
  const dialect = new VelvetSqliteDialect(writer, reader, busyTimeoutMs, threads);
  const kysely = new Kysely<Database>({ dialect });
  const close = async () => {
    await checkpoints?.stop();
    await kysely.destroy();
  };
  const sqlite = {
    kysely,
    driver: dialect.driver as GroupCommitSqliteDriver,
    writeLock: threads,
  };
  return { kysely, indexed: kysely, dialect: "sqlite", sqlite, close };
}

class VelvetSqliteDialect extends SqliteDialect {
  /** The one driver Kysely made (in its constructor). */
  driver: GroupCommitSqliteDriver | undefined;

  constructor(
    readonly writer: SQLite.Database,
    readonly reader: SQLite.Database | null,
    readonly busyTimeoutMs: number,
    readonly threads: ThreadWriteLock | null,
  ) {
    super({ database: writer });
  }

  override createDriver(): Driver {
    this.driver = new GroupCommitSqliteDriver(
      this.writer,
      this.reader,
      this.busyTimeoutMs,
      this.threads,
    );
    return this.driver;
  }

  override createAdapter(): DialectAdapter {
    return new GroupCommitSqliteAdapter();
  }
}

/**
 * Kysely's SQLite adapter, corrected for the group-commit driver on two counts:
 * - Multiple connections: Kysely's adapter says SQLite has one, so Kysely would hand out one
 *   connection at a time (its own mutex, held from acquire to release). The driver has its own
 *   discipline (a writer lock in arrival order, a reader that never waits, transactions of a
 *   turn sharing one COMMIT), which that mutex would undo: a read would wait for every pending
 *   transaction, and no two transactions could share a group.
 * - Transactional DDL: SQLite runs DDL inside transactions, but Kysely's adapter says it does
 *   not, so its migrator would run migrations with no transaction and no lock: two processes
 *   starting together on a new database both ran 0001 ("table accounts already exists").
 *   Saying yes makes the migrator run in one transaction, whose BEGIN IMMEDIATE takes SQLite's
 *   write lock: the second process waits for it, then finds the migrations applied. A failed
 *   migration also leaves nothing.
 */
class GroupCommitSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }

  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

const INT8_OID = 20;

/**
 * In transaction mode (behind a pooler that hands a server connection out per transaction:
 * database-target.ts) the `indexed` pool is the same as in session mode but for what a session
 * would carry: no startup options (the pooler refuses them), no DISCARD PLANS (it would reach
 * whichever server connection the pooler picks), and its statements unnamed unless
 * DATABASE_PREPARED_STATEMENTS says the pooler keeps them. An unnamed statement is planned on
 * every run for its values and the tables' sizes as they are then, so no plan made on empty
 * tables outlives them (docs/operating.md, "Behind a connection pooler", has the measurements).
 */
function openPostgres(target: PostgresTarget): Db {
  const { poolerMode, preparedStatements } = postgresSessionRules(target);
  const session = poolerMode === "session";
  const kysely = new Kysely<Database>({
    dialect: new VelvetPostgresDialect({
      pool: pgPool(target.url, target.poolMax, preparedStatements),
    }),
  });
  const indexedPool = pgPool(
    target.url,
    INDEXED_POOL_MAX,
    preparedStatements,
    session ? "-c enable_seqscan=off -c plan_cache_mode=force_generic_plan" : undefined,
  );
  if (session && preparedStatements) {
    const uses = new WeakMap<pg.PoolClient, number>();
    indexedPool.on("acquire", (client) => {
      const n = (uses.get(client) ?? 0) + 1;
      uses.set(client, n);
      // Queued ahead of the statement the client was acquired for; its failure is that one's.
      if (replanDue(n)) client.query("discard plans").catch(() => {});
    });
  }
  const indexed = new Kysely<Database>({
    dialect: new VelvetPostgresDialect({ pool: indexedPool }),
  });
  const close = async () => {
    await Promise.all([kysely.destroy(), indexed.destroy()]);
  };
  return { kysely, indexed, dialect: "postgres", sqlite: null, close };
}

function pgPool(url: string, max: number, named: boolean, options?: string): pg.Pool {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(options === undefined ? {} : { options }),
    // A server that does not answer (a partition, a failover in progress) fails the request in
    // hand (503) after this long instead of holding it until TCP gives up.
    connectionTimeoutMillis: 5_000,
    // Instants are epoch milliseconds in bigint columns; they fit a JS number exactly.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format as "text")) as typeof pg.types.getTypeParser,
    },
  });
  // A client that loses its server (a restart, a failover, pg_terminate_backend, an idle
  // reaper) emits 'error'. pg-pool listens only while the client is idle; checked out, an
  // unheard 'error' would end the process. So every client hears its errors for its whole life:
  // the query in flight fails with the error (the request answers 503, the job retries), pg
  // marks the client unusable, and the pool discards it on release and connects a new one.
  pool.on("error", () => {});
  pool.on("connect", (client) => {
    client.on("error", () => {});
    if (named) useNamedStatements(client);
  });
  return pool;
}
