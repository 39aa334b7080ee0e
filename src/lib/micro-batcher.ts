/**
 * Group commit for round trips: work items that arrive while the database is busy leave
 * together, as one statement, as soon as it is free again.
 *
 * An item is sent at once while fewer than `maxInFlight` batches are out, so at low load every
 * item goes alone and waits for nothing (no timer, no added latency). When all are out, items
 * wait in arrival order; the moment a batch comes back, up to `maxBatch` of them leave together.
 * Under load that turns many round trips, pool checkouts and commits into one, which is where
 * a busy PostgreSQL's time goes (docs/performance.md, Order intake).
 *
 * `run` answers each item of a batch, in order: a value, or the reason that item failed. If
 * `run` itself rejects, every item of that batch is rejected with its error.
 */
export interface MicroBatcher<I, O> {
  submit(item: I): Promise<O>;
  /** Items waiting for a batch to come back (for tests). */
  readonly waiting: number;
}

export interface MicroBatcherOptions<I, O> {
  maxBatch: number;
  maxInFlight: number;
  run(items: readonly I[]): Promise<PromiseSettledResult<O>[]>;
}

interface Waiting<I, O> {
  item: I;
  resolve(value: O): void;
  reject(reason: unknown): void;
}

export function createMicroBatcher<I, O>(options: MicroBatcherOptions<I, O>): MicroBatcher<I, O> {
  const { maxBatch, maxInFlight, run } = options;
  if (!(maxBatch >= 1 && maxInFlight >= 1)) {
    throw new Error("createMicroBatcher: maxBatch and maxInFlight must be at least 1");
  }
  let queue: Waiting<I, O>[] = [];
  let inFlight = 0;

  const settle = (batch: Waiting<I, O>[], outcomes: PromiseSettledResult<O>[]) => {
    batch.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) waiting.reject(new Error("batch answered fewer items than sent"));
      else if (outcome.status === "fulfilled") waiting.resolve(outcome.value);
      else waiting.reject(outcome.reason);
    });
  };

  const send = (batch: Waiting<I, O>[]) => {
    inFlight += 1;
    let answered: Promise<PromiseSettledResult<O>[]>;
    try {
      answered = run(batch.map((w) => w.item));
    } catch (error) {
      answered = Promise.reject(error);
    }
    answered
      .then(
        (outcomes) => settle(batch, outcomes),
        (error: unknown) => {
          for (const waiting of batch) waiting.reject(error);
        },
      )
      .finally(() => {
        inFlight -= 1;
        pump();
      });
  };

  const pump = () => {
    while (inFlight < maxInFlight && queue.length > 0) {
      if (queue.length <= maxBatch) {
        const batch = queue;
        queue = [];
        send(batch);
      } else {
        send(queue.splice(0, maxBatch));
      }
    }
  };

  return {
    get waiting() {
      return queue.length;
    },
    submit(item) {
      return new Promise<O>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        pump();
      });
    },
  };
}

/**
 * One batcher per owner (a database handle), made on first use and dropped with its owner: the
 * batches of one pool must not wait on another's.
 */
export function batcherPerOwner<K extends object, I, O>(
  options: (owner: K) => MicroBatcherOptions<I, O>,
): (owner: K) => MicroBatcher<I, O> {
  const batchers = new WeakMap<K, MicroBatcher<I, O>>();
  return (owner) => {
    let batcher = batchers.get(owner);
    if (batcher === undefined) {
      batcher = createMicroBatcher(options(owner));
      batchers.set(owner, batcher);
    }
    return batcher;
  };
}
