/**
 * Kysely's SQLite driver, rebuilt for a busy server process. better-sqlite3 runs every statement
 * synchronously on the one event loop, so the work done on the writer connection bounds the
 * whole server; everything here shortens or batches that work. Callers see the same behaviour
 * as with Kysely's own driver: every transaction is all-or-nothing, reads see committed data.
 * This file holds the driver Kysely calls, which ties the parts together: transactions begun,
 * committed and rolled back in their savepoints, reads sent to the reader, the busy wait and the
 * threads' write lock. The parts have files of their own: the group's members and COMMIT
 * (sqlite-group-commit.ts), the writer's FIFO queue (sqlite-writer-queue.ts), the connection
 * handles Kysely holds (sqlite-connection-handle.ts), the prepared statements
 * (sqlite-statement-cache.ts).
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
import { ConnectionHandle, type HandleDriver } from "./sqlite-connection-handle.js";
import { GroupCommit } from "./sqlite-group-commit.js";
import { runStatement, StatementCache } from "./sqlite-statement-cache.js";
import { WriterQueue } from "./sqlite-writer-queue.js";
import type { ThreadWriteLock } from "./thread-write-lock.js";
import type { SyncTransactionDriver } from "./transact-sync.js";
import { waitForWriteLock } from "./wait-for-write-lock.js";

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;
const SAVEPOINT = "velvet_txn";
const PLAIN_READ = /^\s*(select|with)\b/i;

export class GroupCommitSqliteDriver implements Driver, SyncTransactionDriver, HandleDriver {
  readonly writer: StatementCache;
  readonly #reader: StatementCache | null;
  readonly #free: ConnectionHandle[] = [];
  readonly #writerQueue = new WriterQueue();
  readonly #group: GroupCommit;
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
    this.#group = new GroupCommit(
      this.writer,
      () => this.#writerQueue.held,
      () => this.#releaseThreadsIfDone(),
    );
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.connectionNow();
  }

  connectionNow(): DatabaseConnection {
    return this.#free.pop() ?? new ConnectionHandle(this);
  }

  noteWriteError(error: unknown): void {
    this.#group.noteWriteError(error);
  }

  /** Commits the group now, or as soon as the transaction holding the writer has ended. */
  commitGroupNow(): void {
    this.#group.commitNow();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    if (handle.inTransaction) await this.rollbackTransaction(handle);
    if (handle.holdsWriter) this.#unlockWriter(handle);
    this.#free.push(handle);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    if (!handle.holdsWriter) await this.#writerQueue.lock(handle);
    try {
      if (!this.#group.open) {
        await this.#takeThreads();
        const begin = this.writer.get("begin immediate");
        await waitForWriteLock(() => begin.run(), this.#busyTimeoutMs);
        this.#group.start();
      }
      this.writer.get(`savepoint ${SAVEPOINT}`).run();
    } catch (error) {
      // A SAVEPOINT failing right after a fresh BEGIN must not leave that empty group open.
      this.#group.endIfEmpty();
      this.#releaseThreadsIfDone();
      throw error;
    }
    handle.inTransaction = true;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const handle = connection as ConnectionHandle;
    if (!this.#group.open) throw new Error("commit outside a transaction");
    // If the release fails, Kysely calls rollbackTransaction, which still finds the savepoint.
    this.writer.get(`release ${SAVEPOINT}`).run();
    handle.inTransaction = false;
    const committed = this.#group.join();
    // The serving thread waiting for the lock: commit now rather than at the end of the turn.
    if (this.#group.full || this.#shouldYieldLock()) this.#group.flush();
    else this.#group.scheduleFlush();
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
      if (!this.writer.db.inTransaction) this.#group.flush();
      else this.#group.endIfEmpty();
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
    if (!this.#writerQueue.held) this.#group.flush();
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
        if (statement.readonly) return runStatement(statement, query.parameters);
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
            () => runStatement(statement, query.parameters),
            this.#busyTimeoutMs,
          );
        } finally {
          this.#releaseThreadsIfDone();
        }
      }
      return runStatement(statement, query.parameters);
    } catch (error) {
      this.#group.noteWriteError(error);
      throw error;
    }
  }

  /** Outside a transaction, a statement sees and makes only committed state: no pending group. */
  async writerOutsideTransaction(handle: ConnectionHandle): Promise<void> {
    await this.#writerQueue.lock(handle);
    this.#group.flush();
  }

  /**
   * A thread other than the serving one commits as soon as no transaction of its own queues
   * behind this one, or at once when the serving thread waits, rather than at the end of its
   * turn: the write lock is never held through the rest of a worker's turn.
   */
  #shouldYieldLock(): boolean {
    const threads = this.#threads;
    if (threads === null || threads.serving) return false;
    return threads.urgentWaiting || this.#writerQueue.waiting === 0;
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

  #unlockWriter(handle: ConnectionHandle): void {
    if (!handle.holdsWriter) return;
    handle.holdsWriter = false;
    this.#group.writerFreed();
    this.#writerQueue.handOver();
  }
}

function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
