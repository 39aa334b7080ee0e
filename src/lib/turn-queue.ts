/**
 * The turn queue (not to be confused with alerts/webhook-pacer.ts, which spaces messages in time).
 * Background work, one piece per event-loop turn. Node runs every callback that is ready in a
 * phase before it polls for I/O again: hand it fifty provider answers at once (a thread's
 * messages arrive in batches) and the fifty database transactions they start all run before
 * the next order request is even read. Paced, the loop polls between any two pieces, so an
 * order waits behind at most one of them; the background work takes a few more turns, which
 * costs it microseconds it does not care about.
 *
 * A piece runs in its own setImmediate callback, with the microtasks it starts (a promise it
 * resolves, the transaction that continues from there) drained right after it, then the loop
 * goes round: timers, I/O poll, and the next piece.
 */
export interface TurnQueue {
  run(piece: () => void): void;
}

export function createTurnQueue(): TurnQueue {
  const queue: Array<() => void> = [];
  let scheduled = false;

  const next = () => {
    const piece = queue.shift();
    if (queue.length > 0) setImmediate(next);
    else scheduled = false;
    piece?.();
  };

  return {
    run(piece) {
      queue.push(piece);
      if (!scheduled) {
        scheduled = true;
        setImmediate(next);
      }
    },
  };
}
