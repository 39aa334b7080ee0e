/**
 * The worker's waiting primitives: a doorbell that wakes its poll sleep early (and is not lost
 * when rung while nobody waits), and a bounded wait for running jobs at shutdown.
 */
/** A wake-up that is not lost when rung while nobody waits. */
export function doorbell() {
  let rung = false;
  let wake: (() => void) | null = null;
  return {
    ring() {
      rung = true;
      wake?.();
    },
    wait(ms: number): Promise<void> {
      if (rung) {
        rung = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wake = null;
          rung = false;
          resolve();
        }
        wake = done;
      });
    },
  };
}

/** Waits until every running job has settled or `ms` have passed, whichever comes first. */
export async function settledWithin(
  running: ReadonlySet<{ done: Promise<void> }>,
  ms: number,
): Promise<void> {
  if (running.size === 0) return;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ms);
  });
  await Promise.race([Promise.all([...running].map((r) => r.done)), timeout]);
  clearTimeout(timer);
}
