/**
 * The group (glossary in sqlite-driver.ts): the members of the SQLite transaction open on the
 * writer, each a Kysely or synchronous transaction whose savepoint was released and whose
 * commit waits for the group's COMMIT; when that COMMIT runs (at the end of the turn, at
 * MAX_GROUP members, or as soon as the writer is free when asked to commit now); and how its
 * members are settled: all resolved when the COMMIT succeeds, all rejected when it fails or
 * when SQLite rolled the transaction back by itself. The driver begins the transaction, runs
 * the savepoints, and tells the group when the writer is free and when a statement failed.
 */
import type { StatementCache } from "./sqlite-statement-cache.js";

const MAX_GROUP = 100;

interface Member {
  resolve(): void;
  reject(error: unknown): void;
}

export class GroupCommit {
  readonly #writer: StatementCache;
  readonly #writerHeld: () => boolean;
  readonly #releaseThreadsIfDone: () => void;
  #group: Member[] | null = null;
  #flushScheduled = false;
  #flushWhenFree = false;
  /**
   * The last error of a statement on the writer: when SQLite rolls a whole group back by itself
   * (a full disk, an I/O error), the other members' failure names it as its cause, so they are
   * classified like the member that hit it (503 with Retry-After, not a bare 500).
   */
  #lastWriteError: unknown = undefined;

  /**
   * `writerHeld`: whether a transaction holds the writer now (a commit then waits until it is
   * free); `releaseThreadsIfDone`: hands the write lock to the other threads once no
   * transaction is open on the writer.
   */
  constructor(writer: StatementCache, writerHeld: () => boolean, releaseThreadsIfDone: () => void) {
    this.#writer = writer;
    this.#writerHeld = writerHeld;
    this.#releaseThreadsIfDone = releaseThreadsIfDone;
  }

  /** Whether a group is open: its transaction begun on the writer, its COMMIT still to run. */
  get open(): boolean {
    return this.#group !== null;
  }

  /** A group begins, its transaction just begun on the writer. */
  start(): void {
    this.#group = [];
  }

  /** A member joins the group; settled when the group's COMMIT has succeeded or failed. */
  join(): Promise<void> {
    const group = this.#group;
    if (group === null) throw new Error("no group to join");
    return new Promise<void>((resolve, reject) => {
      group.push({ resolve, reject });
    });
  }

  get full(): boolean {
    return this.#group !== null && this.#group.length >= MAX_GROUP;
  }

  noteWriteError(error: unknown): void {
    this.#lastWriteError = error;
  }

  /** Commits the group now, or as soon as the transaction holding the writer has ended. */
  commitNow(): void {
    if (this.#writerHeld()) this.#flushWhenFree = true;
    else this.flush();
  }

  /** The writer's holder let it go: a commit that waited for that runs now. */
  writerFreed(): void {
    if (this.#flushWhenFree) this.flush();
  }

  scheduleFlush(): void {
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    // After this turn's I/O callbacks, so every transaction they started joins the group.
    setImmediate(() => {
      this.#flushScheduled = false;
      if (this.#writerHeld()) this.#flushWhenFree = true;
      else this.flush();
    });
  }

  /** Commits the group and settles its members. Called only when no transaction is open. */
  flush(): void {
    this.#flushWhenFree = false;
    const members = this.#group;
    if (members === null) return;
    this.#group = null;
    let failure: unknown = null;
    try {
      if (!this.#writer.db.inTransaction)
        throw new Error("the SQLite transaction was rolled back", { cause: this.#lastWriteError });
      this.#writer.get("commit").run();
    } catch (error) {
      failure = error;
      if (this.#writer.db.inTransaction) this.#writer.get("rollback").run();
    }
    this.#releaseThreadsIfDone();
    for (const member of members) {
      if (failure === null) member.resolve();
      else member.reject(failure);
    }
  }

  endIfEmpty(): void {
    if (this.#group === null || this.#group.length > 0) return;
    this.#group = null;
    if (this.#writer.db.inTransaction) this.#writer.get("rollback").run();
    this.#releaseThreadsIfDone();
  }
}
