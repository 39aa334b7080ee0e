/**
 * The writer's holders in arrival order (glossary in sqlite-driver.ts): one connection handle
 * at a time holds the writer connection, for a transaction or a statement outside one; the
 * others wait in a FIFO queue and each release wakes only the next (Kysely's own mutex wakes
 * every waiter on each release). The driver decides what happens between a holder's release
 * and the hand-over (a group commit that waited for a free writer).
 */
import type { ConnectionHandle } from "./sqlite-connection-handle.js";

export class WriterQueue {
  readonly #waiting: Array<() => void> = [];
  #held = false;

  /** Whether a handle holds the writer now. */
  get held(): boolean {
    return this.#held;
  }

  /** How many handles wait for the writer. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** The writer for `handle`: at once (no promise) when it is free, else in its turn. */
  lock(handle: ConnectionHandle): Promise<void> | undefined {
    if (!this.#held) {
      this.#held = true;
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

  /** The holder has let the writer go: the next in line holds it, or it is free. */
  handOver(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#held = false;
  }
}
