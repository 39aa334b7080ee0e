/**
 * An open-loop load generator: requests are sent on a fixed schedule (request i at start +
 * i / rate), whether or not earlier ones have been answered, over a pool of at most
 * `connections` keep-alive connections (undici Pool, no pipelining). This is how orders arrive
 * in production, and it keeps the rate exact while the server is busy with other work.
 * (autocannon's `overallRate` sends each connection's share of a second as a burst at the
 * start of each second, so its latencies would measure the burst queue, not the server.)
 *
 * One continuous stream: a warm-up, then the measured window. Requests *scheduled* in the
 * window are the measured ones; latency is from the moment a request is handed to the client
 * to the last byte of its answer, kept exactly. How late the sender was against its schedule
 * is reported too: a late sender means the load generator, not the server, was short of CPU.
 */
import { Pool } from "undici";
import { percentile, type RequestSource } from "./load.js";

export interface PacedSpec {
  url: string;
  path: string;
  headers: Record<string, string>;
  connections: number;
  ratePerSec: number;
  warmupSec: number;
  durationSec: number;
  source: RequestSource;
}

export interface LatencyStats {
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

export interface PacedResult {
  ratePerSec: number;
  connections: number;
  /** Epoch ms: the stream's first request, and the measured window [windowStart, windowEnd). */
  startedAt: number;
  windowStart: number;
  windowEnd: number;
  sent: number;
  /** Answers with a 2xx status and the body that request had to get. */
  correct: number;
  non2xx: number;
  mismatches: number;
  errors: number;
  statusCodes: Record<string, number>;
  /** Latencies of the requests scheduled in the measured window. */
  window: LatencyStats;
  /** Latencies of every request, warm-up included (the slowest answer of the whole stream). */
  all: LatencyStats;
  /** Epoch ms: when the stream's last request was handed to the client. */
  lastSentAt: number;
  /** How late requests left against their schedule (the load generator's own health). */
  sendLateness: LatencyStats;
  /** The window second by second: p99 and max latency of the requests sent in each. */
  bySecond: Array<{ p99Ms: number; maxMs: number }>;
}

export async function runPaced(spec: PacedSpec): Promise<PacedResult> {
  const pool = new Pool(spec.url, {
    connections: spec.connections,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: 10_000,
    bodyTimeout: 10_000,
  });
  const headers = { "content-type": "application/json", ...spec.headers };
  const intervalMs = 1000 / spec.ratePerSec;
  const total = Math.round(spec.ratePerSec * (spec.warmupSec + spec.durationSec));
  const firstMeasured = Math.round(spec.ratePerSec * spec.warmupSec);
  const windowLatencies: number[] = [];
  const allLatencies: number[] = [];
  const perSecond: number[][] = Array.from({ length: Math.ceil(spec.durationSec) }, () => []);
  const lateness: number[] = [];
  const statusCodes: Record<string, number> = {};
  const counts = { correct: 0, non2xx: 0, mismatches: 0, errors: 0 };

  async function send(index: number): Promise<void> {
    const { body, tag, headers: own } = spec.source.next();
    const sentAt = performance.now();
    try {
      const answer = await pool.request({
        path: spec.path,
        method: "POST",
        headers: own === undefined ? headers : { ...headers, ...own },
        body,
      });
      const text = await answer.body.text();
      const ms = performance.now() - sentAt;
      allLatencies.push(ms);
      if (index >= firstMeasured) {
        windowLatencies.push(ms);
        perSecond[Math.floor((index - firstMeasured) / spec.ratePerSec)]?.push(ms);
      }
      const code = String(answer.statusCode);
      statusCodes[code] = (statusCodes[code] ?? 0) + 1;
      if (answer.statusCode < 200 || answer.statusCode >= 300) counts.non2xx++;
      else if (spec.source.check(tag, answer.statusCode, text)) counts.correct++;
      else counts.mismatches++;
    } catch {
      counts.errors++;
    }
  }

  const startedAt = Date.now();
  const t0 = performance.now();
  const inFlight = new Set<Promise<void>>();
  let lastSentAt = startedAt;
  try {
    for (let i = 0; i < total; i++) {
      const due = t0 + i * intervalMs;
      const wait = due - performance.now();
      if (wait > 0.5) await new Promise((r) => setTimeout(r, wait));
      lateness.push(Math.max(0, performance.now() - due));
      lastSentAt = Date.now();
      const request = send(i);
      inFlight.add(request);
      void request.finally(() => inFlight.delete(request));
    }
    await Promise.all([...inFlight]);
  } finally {
    await pool.close();
  }
  windowLatencies.sort((a, b) => a - b);
  allLatencies.sort((a, b) => a - b);
  lateness.sort((a, b) => a - b);
  return {
    ratePerSec: spec.ratePerSec,
    connections: spec.connections,
    startedAt,
    windowStart: startedAt + spec.warmupSec * 1000,
    windowEnd: startedAt + (spec.warmupSec + spec.durationSec) * 1000,
    sent: total,
    ...counts,
    statusCodes,
    window: latencyStats(windowLatencies),
    all: latencyStats(allLatencies),
    lastSentAt,
    sendLateness: latencyStats(lateness),
    bySecond: perSecond.map((second) => {
      const stats = latencyStats(second.sort((a, b) => a - b));
      return { p99Ms: stats.p99Ms, maxMs: stats.maxMs };
    }),
  };
}

/** Percentiles of an ascending array of milliseconds. */
export function latencyStats(sorted: number[]): LatencyStats {
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p90Ms: percentile(sorted, 90),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1] ?? 0,
  };
}
