/**
 * At most `limit` calls in flight to one provider; later callers wait in order. Waiting is not
 * bounded here: a slot frees within one provider timeout, and the caller's signal (shutdown,
 * lease end) ends the wait.
 */

export interface ConcurrencyLimiter {
  /** Resolves to a release function, or null when the signal aborted first. */
  acquire(signal: AbortSignal): Promise<(() => void) | null>;
  readonly inFlight: number;
  readonly waiting: number;
}

export function createConcurrencyLimiter(limit: number): ConcurrencyLimiter {
  let inFlight = 0;
  const queue: Array<() => void> = [];

  function release(): void {
    const next = queue.shift();
    if (next === undefined) inFlight -= 1;
    else next(); // the slot passes straight to the next caller
  }

  function once(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      release();
    };
  }

  return {
    get inFlight() {
      return inFlight;
    },
    get waiting() {
      return queue.length;
    },
    acquire(signal: AbortSignal): Promise<(() => void) | null> {
      if (signal.aborted) return Promise.resolve(null);
      if (inFlight < limit) {
        inFlight += 1;
        return Promise.resolve(once());
      }
      return new Promise((resolve) => {
        const grant = () => {
          signal.removeEventListener("abort", onAbort);
          resolve(once());
        };
        const onAbort = () => {
          const index = queue.indexOf(grant);
          if (index >= 0) queue.splice(index, 1);
          resolve(null);
        };
        queue.push(grant);
        signal.addEventListener("abort", onAbort, { once: true });
      });
    },
  };
}
