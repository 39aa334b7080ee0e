/**
 * SQLite's write lock, taken in turn by the threads of one process (`velvet serve` and its worker
 * thread, each with its own connection), with the thread that serves requests first.
 *
 * Without it a thread finds the lock taken only when its BEGIN IMMEDIATE fails with SQLITE_BUSY,
 * and tries again after a pause (wait-for-write-lock.ts: 1 ms doubling to 25 ms): fine against
 * another process that writes now and then, but against a worker thread storing hundreds of
 * results a second the serving thread kept arriving while the lock was held and waited through
 * one pause after another (order p99 in the seconds, measured). Here a thread that ends its
 * write transaction hands the lock on at once (Atomics.notify wakes the waiting thread's event
 * loop; nothing blocks), and while the serving thread waits the worker thread takes no new turn
 * and commits what it holds at once (`urgent`), so an order waits for at most one of the
 * worker's transactions. Other processes are still met through SQLITE_BUSY as before.
 *
 * The state lives in a SharedArrayBuffer that the worker thread receives when it starts:
 * [the holder's id, or 0 when free; serving-side waiters; generation, bumped on each release so
 * that waiters look again; the last id given out]. Each side of the lock has an id of its own.
 */
import { DatabaseBusyError } from "./errors.js";

const HOLDER = 0;
const URGENT = 1;
const GENERATION = 2;
const LAST_ID = 3;
const WORDS = 4;

export interface ThreadWriteLockOptions {
  /** The thread that answers requests: served before the others. */
  urgent: boolean;
}

export class ThreadWriteLock {
  readonly buffer: SharedArrayBuffer;
  readonly #words: Int32Array;
  /** This side's id (never 0, which means free). */
  readonly id: number;
  readonly #urgent: boolean;

  /** A new lock (no `buffer`), or the one another thread of this process created. */
  constructor(options: ThreadWriteLockOptions, buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(WORDS * Int32Array.BYTES_PER_ELEMENT);
    this.#words = new Int32Array(this.buffer);
    this.#urgent = options.urgent;
    this.id = Atomics.add(this.#words, LAST_ID, 1) + 1;
  }

  /** This is the serving thread's side of the lock. */
  get serving(): boolean {
    return this.#urgent;
  }

  /** True while the serving thread waits for the lock: a worker thread commits what it holds now. */
  get urgentWaiting(): boolean {
    return !this.#urgent && Atomics.load(this.#words, URGENT) > 0;
  }

  /** Takes the lock, waiting without blocking; DatabaseBusyError after `timeoutMs`. */
  async acquire(timeoutMs: number): Promise<void> {
    if (this.#tryTake()) return;
    const deadline = performance.now() + timeoutMs;
    if (this.#urgent) Atomics.add(this.#words, URGENT, 1);
    try {
      for (;;) {
        const generation = Atomics.load(this.#words, GENERATION);
        if (this.#tryTake()) return;
        const left = deadline - performance.now();
        if (left <= 0) {
          throw new DatabaseBusyError(
            `another thread of this process held the SQLite write lock for more than ${timeoutMs} ms (SQLITE_BUSY_TIMEOUT_MS); nothing was written`,
          );
        }
        const wait = Atomics.waitAsync(this.#words, GENERATION, generation, left);
        if (wait.async) await wait.value;
      }
    } finally {
      if (this.#urgent) {
        Atomics.sub(this.#words, URGENT, 1);
        // The worker threads waiting behind this one look again.
        this.#bump();
      }
    }
  }

  release(): void {
    this.releaseFor(this.id);
  }

  /** Frees the lock if the side `id` held it (a thread that ended while holding it). */
  releaseFor(id: number): void {
    if (Atomics.compareExchange(this.#words, HOLDER, id, 0) === id) this.#bump();
  }

  #tryTake(): boolean {
    if (!this.#urgent && Atomics.load(this.#words, URGENT) > 0) return false;
    return Atomics.compareExchange(this.#words, HOLDER, 0, this.id) === 0;
  }

  #bump(): void {
    Atomics.add(this.#words, GENERATION, 1);
    Atomics.notify(this.#words, GENERATION);
  }
}
