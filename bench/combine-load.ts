/** Load results put together: several concurrent runs as one, a paced run as a load run. */
import type { LoadResult } from "./load.js";
import type { PacedResult } from "./paced-load.js";

/** A paced run in the shape of a load run: its measured window's answers and latencies. */
export function asLoadResult(paced: PacedResult): LoadResult {
  const durationSec = (paced.windowEnd - paced.windowStart) / 1000;
  return {
    durationSec,
    responses: paced.window.count,
    requestsPerSec: paced.window.count / durationSec,
    p50Ms: paced.window.p50Ms,
    p99Ms: paced.window.p99Ms,
    maxMs: paced.window.maxMs,
    non2xx: paced.non2xx,
    mismatches: paced.mismatches,
    errors: paced.errors,
    timeouts: 0,
    statusCodes: paced.statusCodes,
  };
}

/** Several concurrent load runs as one: requests add up, latencies pool (p99 of the worst). */
export function combine(results: LoadResult[]): LoadResult {
  if (results.length === 1) return results[0] as LoadResult;
  const sum = (f: (r: LoadResult) => number) => results.reduce((s, r) => s + f(r), 0);
  const max = (f: (r: LoadResult) => number) => Math.max(...results.map(f));
  const statusCodes: Record<string, number> = {};
  for (const r of results)
    for (const [code, n] of Object.entries(r.statusCodes))
      statusCodes[code] = (statusCodes[code] ?? 0) + n;
  return {
    durationSec: max((r) => r.durationSec),
    responses: sum((r) => r.responses),
    requestsPerSec: sum((r) => r.requestsPerSec),
    // Weighted by responses: each half served its own share of the requests.
    p50Ms:
      sum((r) => r.p50Ms * r.responses) /
      Math.max(
        1,
        sum((r) => r.responses),
      ),
    p99Ms: max((r) => r.p99Ms),
    maxMs: max((r) => r.maxMs),
    non2xx: sum((r) => r.non2xx),
    mismatches: sum((r) => r.mismatches),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
  };
}
