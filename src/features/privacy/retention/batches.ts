/**
 * How retention and account closure work through many rows without holding the write lock:
 * one small transaction per batch, a turn of the event loop between batches (order requests go
 * first), and a time budget per run, after which the job comes back at once (`again`) rather
 * than keep its lease for minutes.
 */
export const BATCH_SIZE = 200;
export const RUN_BUDGET_MS = 20_000;

export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Runs `batch` until it reports fewer rows than asked for (done), the budget is spent or the
 * signal aborts. Answers the rows handled and whether more may remain.
 */
export async function inBatches(
  batch: () => Promise<number>,
  options: { size: number; signal?: AbortSignal; budgetMs?: number },
): Promise<{ handled: number; more: boolean }> {
  const deadline = performance.now() + (options.budgetMs ?? RUN_BUDGET_MS);
  let handled = 0;
  for (;;) {
    const n = await batch();
    handled += n;
    if (n < options.size) return { handled, more: false };
    if (options.signal?.aborted || performance.now() > deadline) return { handled, more: true };
    await nextTurn();
  }
}
