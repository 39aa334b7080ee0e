/**
 * Kysely's SQLite driver, rebuilt for a busy server process. better-sqlite3 runs every statement
 * synchronously on the one event loop, so the work done on the writer connection bounds the
 * whole server; everything here shortens or batches that work. Callers see the same behaviour
 * as with Kysely's own driver: every transaction is all-or-nothing, reads see committed data.
 *
 * Glossary:
 * - writer: the connection for transactions and writes; one holder at a time, in arrival order
 *   (a FIFO lock: Kysely's own mutex wakes every waiter on each release).
 * - reader: a second, query-only connection. A SELECT outside a transaction runs on it at once,
 *   never queueing behind writers; WAL gives it the last committed state.
 * - group: one SQLite transaction shared by the Kysely transactions of one event-loop turn. Each
 *   runs inside its own savepoint; its "commit" releases the savepoint, and resolves only when
 *   the group's COMMIT has succeeded, once per turn (or every MAX_GROUP members). A member that
 *   fails rolls back to its savepoint alone; a COMMIT that fails fails every member, none of
 *   which has answered yet. Why: a new customer dirties ~20 B-tree pages, most of them shared
 *   index edges; one COMMIT per turn writes each shared page to the WAL once instead of per
 *   request, the largest single cost of order intake. Keep constraints immediate: a deferred
 *   one is checked at the group's COMMIT and would fail the whole group.
 * - synchronous transaction: a member of the group whose body runs its statements on the
 *   writer at once, without Kysely in between (transact-sync.ts, through SyncTransactionDriver);
 *   the bodies of a turn share one savepoint (each again in its own when one throws), the same
 *   COMMIT and the same failure paths.
 * - Transactions begin with BEGIN IMMEDIATE: a deferred BEGIN that later upgrades to a write
 *   lock fails with SQLITE_BUSY, without waiting, when another process (such as a separate
 *   `velvet worker`) wrote in between.
 * - Prepared statements are cached per connection (Kysely's driver prepares every query anew).
 * - Waiting for another process's write lock never blocks the event loop. SQLite's own busy
 *   handler sleeps inside the call, freezing every request of this process meanwhile, so the
 *   writer runs with busy_timeout = 0: a BEGIN IMMEDIATE (or a write outside a transaction)
 *   that finds the lock taken fails at once with SQLITE_BUSY, and is tried again after an
 *   asynchronous pause until `busyTimeoutMs` has passed (wait-for-write-lock.ts); then it fails
 *   with DatabaseBusyError, having written nothing. Requests that need no write carry on
 *   meanwhile (reads use the reader connection). Writers of this process queue behind the one
 *   that waits, in order, as they would behind SQLite's lock.
 *
 * Failure paths (each has a test in sqlite-driver.test.ts that fails when the path is removed):
 * - a member's statement fails: it rolls back to its savepoint alone; the group goes on;
 * - the group's COMMIT fails: every member is rejected, none answered as committed;
 * - the whole transaction is gone under a member (SQLite rolled it back itself): the pending
 *   members fail at once instead of waiting for a COMMIT that cannot succeed;
 * - a savepoint cannot be undone alone: the whole group is rolled back and its members fail;
 * - another process holds the write lock past `busyTimeoutMs` (BEGIN or an autocommit write
 *   fails): DatabaseBusyError, nothing written, and releasing the connection frees the writer
 *   for the next transaction (releaseConnection).
 */
import type SQLite from "better-sqlite3";
import { CompiledQuery, type DatabaseConnection, type Driver, type QueryResult } from "kysely";
import type { ThreadWriteLock } from "./thread-write-lock.js";
import { waitForWriteLock } from "./wait-for-write-lock.js";

const MAX_GROUP = 100;
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const MAX_CACHED_STATEMENTS = 500;
const SAVEPOINT = "velvet_txn";
const PLAIN_READ = /^\s*(select|with)\b/i;

export class StatementCache {
  readonly #statements = new Map<string, SQLite.Statement>();
  constructor(readonly db: SQLite.Database) {}

  get(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

function run(statement: SQLite.Statement, parameters: readonly unknown[]): QueryResult<never> {
  if (statement.reader) return { rows: statement.all(parameters) as never[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** One acquisition of the driver; pooled, because Kysely remembers every connection object. */
class ConnectionHandle implements DatabaseConnection {
  holdsWriter = false;
  inTransaction = false;
  constructor(readonly driver: GroupCommitSqliteDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Not cached: a cached statement cannot serve another query while it is being iterated.
    if (!this.holdsWriter) await this.driver.writerOutsideTransaction(this);
    const statement = this.driver.writer.db.prepare(query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) {
      yield { rows: [row as R] };
    }
  }
}

interface Member {
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * What a synchronous transaction (transact-sync.ts) needs of the driver besides Kysely's
 * Driver methods: the writer's statements for its body; a connection at once, so that its BEGIN
 * queues for the writer in the caller's turn (an await first would let later callers ahead);
 * its body's error noted, as a statement's is, in case SQLite rolled the group back; and the
 * group committed at once when the turn's last synchronous transaction has joined it.
 */
export interface SyncTransactionDriver
  extends Pick<
    Driver,
    "beginTransaction" | "commitTransaction" | "rollbackTransaction" | "releaseConnection"
  > {
  readonly writer: StatementCache;
  connectionNow(): DatabaseConnection;
  noteWriteError(error: unknown): void;
  commitGroupNow(): void;
}

export class GroupCommitSqliteDriver implements Driver, SyncTransactionDriver {
  readonly writer: StatementCache;
  readonly #reader: StatementCache | null;
  readonly #waiting: Array<() => void> = [];
  readonly #free: ConnectionHandle[] = [];
  #writerHeld = false;
  #group: Member[] | null = null;
  #flushScheduled = false;
  #flushWhenFree = false;
  /**
   * The last error of a statement on the writer: when SQLite rolls a whole group back by itself
   * (a full disk, an I/O error), the other members' failure names it as its cause, so they are
   * classified like the member that hit it (503 with Retry-After, not a bare 500).
   */
  #lastWriteError: unknown = undefined;

  readonly #busyTimeoutMs: number;
  /** Shared with the other threads of this process that write (thread-write-lock.ts). */
  readonly #threads: ThreadWriteLock | null;
  #holdsThreads = false;

  /**
   * `reader` is null for an in-memory database, which cannot be shared: reads use the writer.
   * The writer must have busy_timeout = 0 (connect.ts): waiting is done here, asynchronously.
   * `threads`: the write lock this process's threads take in turn, when more than one writes.
   */
  constructor(
    writer: SQLite.Database,
    reader: SQLite.Database | null,
    busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS,
    threads: ThreadWriteLock | null = null,
  ) {
    this.writer = new StatementCache(writer);
    this.#reader = reader === null ? null : new StatementCache(reader);
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#threads = threads;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connectionNow();
  }

  connectionNow(): DatabaseConnection {
    return this.#free.pop() ?? new ConnectionHandle(this);
  }

  noteWriteError(error: unknown): void {
    this.#lastWriteError = error;
  }

  /** Commits the group now, or as soon as the transaction holding the writer has ended. */
  commitGroupNow(): void {
    if (this.#writerHeld) this.#flushWhenFree = true;
    else this.#flush();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    if (handle.inTransaction) await this.rollbackTransaction(handle);
    if (handle.holdsWriter) this.#unlockWriter(handle);
    this.#free.push(handle);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    if (!handle.holdsWriter) await this.#lockWriter(handle);
    try {
      if (this.#group === null) {
        await this.#takeThreads();
        const begin = this.writer.get("begin immediate");
        await waitForWriteLock(() => begin.run(), this.#busyTimeoutMs);
        this.#group = [];
      }
      this.writer.get(`savepoint ${SAVEPOINT}`).run();
    } catch (error) {
      // A SAVEPOINT failing right after a fresh BEGIN must not leave that empty group open.
      this.#endGroupIfEmpty();
      this.#releaseThreadsIfDone();
      throw error;
    }
    handle.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    const group = this.#group;
    if (group === null) throw new Error("commit outside a transaction");
    // If the release fails, Kysely calls rollbackTransaction, which still finds the savepoint.
    this.writer.get(`release ${SAVEPOINT}`).run();
    handle.inTransaction = false;
    const committed = new Promise<void>((resolve, reject) => {
      group.push({ resolve, reject });
    });
    // The serving thread waiting for the lock: commit now rather than at the end of the turn.
    if (group.length >= MAX_GROUP || this.#shouldYieldLock()) this.#flush();
    else this.#scheduleFlush();
    this.#unlockWriter(handle);
    await committed;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    // Not in a transaction: its commit already failed with the group, which undid everything.
    if (!handle.inTransaction) return;
    handle.inTransaction = false;
    try {
      if (this.writer.db.inTransaction) {
        this.writer.get(`rollback to ${SAVEPOINT}`).run();
        this.writer.get(`release ${SAVEPOINT}`).run();
      }
    } catch (error) {
      // This member cannot be undone alone: undo the whole group rather than commit its writes.
      if (this.writer.db.inTransaction) this.writer.get("rollback").run();
      throw error;
    } finally {
      // The whole transaction is gone (undone above, or by SQLite itself on a full disk or an
      // I/O error): the pending members are lost too, and must fail rather than succeed.
      if (!this.writer.db.inTransaction) this.#flush();
      else this.#endGroupIfEmpty();
      this.#unlockWriter(handle);
    }
  }

  /**
   * The query-only connection's statements, for a read of committed data at once (no await);
   * null for an in-memory database, whose reads must queue on the writer (see execute).
   */
  get reader(): StatementCache | null {
    return this.#reader;
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.execute(
      connection as ConnectionHandle,
      CompiledQuery.raw(`savepoint ${quoteName(name)}`),
    );
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.execute(
      connection as ConnectionHandle,
      CompiledQuery.raw(`rollback to ${quoteName(name)}`),
    );
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await this.execute(
      connection as ConnectionHandle,
      CompiledQuery.raw(`release ${quoteName(name)}`),
    );
  }

  async destroy(): Promise<void> {
    if (!this.#writerHeld) this.#flush();
    if (this.#holdsThreads) {
      this.#holdsThreads = false;
      this.#threads?.release();
    }
    this.#reader?.db.close();
    this.writer.db.close();
  }

  async execute(handle: ConnectionHandle, query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (!handle.holdsWriter) {
      if (this.#reader !== null && PLAIN_READ.test(query.sql)) {
        const statement = this.#reader.get(query.sql);
        if (statement.readonly) return run(statement, query.parameters);
      }
      await this.writerOutsideTransaction(handle);
    }
    try {
      const statement = this.writer.get(query.sql);
      // Outside a transaction a write takes the lock itself (autocommit): wait for it here too.
      if (!handle.inTransaction && !statement.readonly) {
        await this.#takeThreads();
        try {
          return await waitForWriteLock(
            () => run(statement, query.parameters),
            this.#busyTimeoutMs,
          );
        } finally {
          this.#releaseThreadsIfDone();
        }
      }
      return run(statement, query.parameters);
    } catch (error) {
      this.#lastWriteError = error;
      throw error;
    }
  }

  /** Outside a transaction, a statement sees and makes only committed state: no pending group. */
  async writerOutsideTransaction(handle: ConnectionHandle): Promise<void> {
    await this.#lockWriter(handle);
    this.#flush();
  }

  /**
   * A thread other than the serving one commits as soon as no transaction of its own queues
   * behind this one, or at once when the serving thread waits, rather than at the end of its
   * turn: the write lock is never held through the rest of a worker's turn.
   */
  #shouldYieldLock(): boolean {
    const threads = this.#threads;
    if (threads === null || threads.serving) return false;
    return threads.urgentWaiting || this.#waiting.length === 0;
  }

  /** The other threads' turn is over: this one's write transaction may begin. */
  async #takeThreads(): Promise<void> {
    if (this.#threads === null || this.#holdsThreads) return;
    await this.#threads.acquire(this.#busyTimeoutMs);
    this.#holdsThreads = true;
  }

  /** Hands the write lock to the other threads once no transaction is open on the writer. */
  #releaseThreadsIfDone(): void {
    if (!this.#holdsThreads || this.writer.db.inTransaction) return;
    this.#holdsThreads = false;
    this.#threads?.release();
  }

  #lockWriter(handle: ConnectionHandle): Promise<void> | undefined {
    if (!this.#writerHeld) {
      this.#writerHeld = true;
      handle.holdsWriter = true;
      return undefined;
    }
    return new Promise((resolve) => {
      this.#waiting.push(() => {
        handle.holdsWriter = true;
        resolve();
      });
    });
  }

  #unlockWriter(handle: ConnectionHandle): void {
    if (!handle.holdsWriter) return;
    handle.holdsWriter = false;
    if (this.#flushWhenFree) this.#flush();
    const next = this.#waiting.shift();
    if (next) next();
    else this.#writerHeld = false;
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // After this turn's I/O callbacks, so every transaction they started joins the group.
    setImmediate(() => {
      this.#flushScheduled = false;
      if (this.#writerHeld) this.#flushWhenFree = true;
      else this.#flush();
    });
  }

  /** Commits the group and settles its members. Called only when no transaction is open. */
  #flush(): void {
    this.#flushWhenFree = false;
    const members = this.#group;
    if (members === null) return;
    this.#group = null;
    let failure: unknown = null;
    try {
      if (!this.writer.db.inTransaction)
        throw new Error("the SQLite transaction was rolled back", { cause: this.#lastWriteError });
      this.writer.get("commit").run();
    } catch (error) {
      failure = error;
      if (this.writer.db.inTransaction) this.writer.get("rollback").run();
    }
    this.#releaseThreadsIfDone();
    for (const member of members) {
      if (failure === null) member.resolve();
      else member.reject(failure);
    }
  }

  #endGroupIfEmpty(): void {
    if (this.#group === null || this.#group.length > 0) return;
    this.#group = null;
    if (this.writer.db.inTransaction) this.writer.get("rollback").run();
    this.#releaseThreadsIfDone();
  }
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
