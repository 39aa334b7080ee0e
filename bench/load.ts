/**
 * One load run with autocannon's programmatic API: a fixed number of keep-alive connections,
 * a fixed duration, each request's body made on the fly (`requests[].setupRequest`), each answer
 * handed back with the tag of the body it answers (`onResponse` and the per-connection context;
 * pipelining is 1, so a connection has one request in flight).
 *
 * Latencies are kept exactly (every response time, in ms as floats) and the percentiles are
 * computed from them: autocannon's own histogram truncates to whole milliseconds, too coarse
 * for a 25 ms target.
 */
import autocannon from "autocannon";

export interface RequestSource {
  /**
   * The next request body and a tag identifying it (e.g. the customer's number), and the
   * request's own headers when it has some (a signed webhook delivery; paced-load.ts only).
   */
  next(): { body: string; tag: number; headers?: Record<string, string> };
  /** Called with every answer; returns false when the answer is wrong (counted as a mismatch). */
  check(tag: number, status: number, body: string): boolean;
}

export interface LoadSpec {
  url: string;
  path: string;
  headers: Record<string, string>;
  connections: number;
  durationSec: number;
  source: RequestSource;
}

export interface LoadResult {
  durationSec: number;
  responses: number;
  requestsPerSec: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  non2xx: number;
  /** 2xx answers whose body was not what that request had to get. */
  mismatches: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
}

interface Context {
  tag?: number;
}

export async function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  let mismatches = 0;
  const options: autocannon.Options = {
    url: spec.url,
    connections: spec.connections,
    pipelining: 1,
    duration: spec.durationSec,
    timeout: 10,
    requests: [
      {
        method: "POST",
        path: spec.path,
        headers: { "content-type": "application/json", ...spec.headers },
        setupRequest: (request, context) => {
          const { body, tag } = spec.source.next();
          (context as Context).tag = tag;
          return { ...request, body };
        },
        onResponse: (status, body, context) => {
          const tag = (context as Context).tag;
          if (
            status >= 200 &&
            status < 300 &&
            (tag === undefined || !spec.source.check(tag, status, body))
          ) {
            mismatches++;
          }
        },
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, finished) =>
      error ? reject(error) : resolve(finished),
    );
    instance.on("response", (_client, _status, _bytes, ms) => {
      latencies.push(ms);
    });
  });

  latencies.sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {})) {
    statusCodes[code] = (stats as { count: number }).count;
  }
  const responses = latencies.length;
  return {
    durationSec: result.duration,
    responses,
    requestsPerSec: responses / result.duration,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: latencies[latencies.length - 1] ?? 0,
    non2xx: result.non2xx,
    mismatches,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
  };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? 0;
}
