/** A run of a phase that alternates its runs in rounds (orders.ts, orders-postgres.ts). */
export interface RoundRun {
  name: string;
  round?: number;
  requestsPerSec: number;
}

/**
 * The median over the rounds of `name`'s throughput against `over`'s in the same round (a
 * disturbed round weighs one vote).
 */
export function medianRatio<R extends RoundRun>(
  runs: readonly R[],
  name: R["name"],
  over: R["name"],
): number {
  const ratios = runs
    .filter((r) => r.name === name)
    .map((r) => {
      const base = runs.find((b) => b.name === over && b.round === r.round) as R;
      return r.requestsPerSec / base.requestsPerSec;
    })
    .sort((a, b) => a - b);
  const mid = Math.floor(ratios.length / 2);
  return ratios.length % 2 === 1
    ? (ratios[mid] as number)
    : ((ratios[mid - 1] as number) + (ratios[mid] as number)) / 2;
}
