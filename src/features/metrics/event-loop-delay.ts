/**
 * `velvet_event_loop_delay_seconds`: how late the event loop turned, as a Prometheus histogram
 * (cumulative, so it can be summed over processes and read with `histogram_quantile` over any
 * window). Node samples the loop natively (`perf_hooks.monitorEventLoopDelay`: a libuv timer
 * every RESOLUTION_MS recording the time since its previous run into an HDR histogram, off the
 * JavaScript heap, never emptied); a scrape reads the buckets from it. A sample counts what the
 * timer waited beyond its own interval, so an idle loop reads ≈ 0 and a turn that held the
 * thread for 40 ms reads ≈ 40 ms.
 *
 * The native histogram is never reset: Node drops the first interval after a reset, so a stall
 * that began just before a scrape would go uncounted.
 *
 * prom-client's own `nodejs_eventloop_lag_p99_seconds` and its siblings are kept (they come with
 * the default metrics), but each is a percentile of the samples since the previous scrape,
 * interval included: one scraper's reading, which cannot be summed or rated.
 */
import { type IntervalHistogram, monitorEventLoopDelay } from "node:perf_hooks";
import type { Registry } from "prom-client";

const NAME = "velvet_event_loop_delay_seconds";
const THREAD_NAME = "velvet_thread_event_loop_delay_seconds";
/** How often a helper thread sends its loop's histogram. */
export const THREAD_REPORT_MS = 5_000;
const RESOLUTION_MS = 10;
/** Bounds in seconds: fine where a request's budget is (a few ms to 25 ms), coarse past it. */
const BOUNDS = [
  0.001, 0.002, 0.003, 0.005, 0.0075, 0.01, 0.015, 0.02, 0.025, 0.035, 0.05, 0.075, 0.1, 0.25, 0.5,
  1, 2.5,
];

interface Sample {
  metricName: string;
  labels: Record<string, string | number>;
  value: number;
}

/** A loop's delay histogram as it stands: cumulative counts at BOUNDS, the sum and the count. */
export interface LoopDelaySnapshot {
  buckets: number[];
  sum: number;
  count: number;
}

/** Starts sampling the calling thread's event loop; the function reads it as it stands. */
export function monitorLoopDelay(): () => LoopDelaySnapshot {
  const native = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  native.enable();
  return () => snapshotOf(native);
}

function snapshotOf(h: IntervalHistogram): LoopDelaySnapshot {
  const n = h.count;
  const intervalNs = RESOLUTION_MS * 1e6;
  return {
    buckets: BOUNDS.map((b) => countAtOrBelow(h, n, b * 1e9 + intervalNs)),
    sum: n === 0 ? 0 : Math.max(0, (h.mean - intervalNs) * n) / 1e9,
    count: n,
  };
}

function samples(name: string, s: LoopDelaySnapshot, labels: Record<string, string>): Sample[] {
  const values: Sample[] = BOUNDS.map((b, i) => ({
    metricName: `${name}_bucket`,
    labels: { ...labels, le: b },
    value: s.buckets[i] ?? s.count,
  }));
  values.push(
    { metricName: `${name}_bucket`, labels: { ...labels, le: "+Inf" }, value: s.count },
    { metricName: `${name}_sum`, labels, value: s.sum },
    { metricName: `${name}_count`, labels, value: s.count },
  );
  return values;
}

/**
 * A histogram collector over loop-delay snapshots, one series per label set: the registry takes
 * any object with name, help, type and get() (as RequestHistogram).
 */
abstract class LoopDelayCollector {
  readonly type = "histogram";
  readonly aggregator = "sum";

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
  ) {
    registry.registerMetric(this as unknown as Parameters<Registry["registerMetric"]>[0]);
  }

  protected abstract series(): Array<[Record<string, string>, LoopDelaySnapshot]>;

  get(): { name: string; help: string; type: string; aggregator: string; values: Sample[] } {
    const values = this.series().flatMap(([labels, s]) => samples(this.name, s, labels));
    return {
      name: this.name,
      help: this.help,
      type: this.type,
      aggregator: this.aggregator,
      values,
    };
  }
}

export class EventLoopDelayHistogram extends LoopDelayCollector {
  private readonly read = monitorLoopDelay();

  constructor(registry: Registry) {
    super(
      registry,
      NAME,
      "How late this process's event loop turned: what a 10 ms timer waited beyond its interval (monitorEventLoopDelay)",
    );
  }

  protected series(): Array<[Record<string, string>, LoopDelaySnapshot]> {
    return [[{}, this.read()]];
  }
}

/**
 * `velvet_thread_event_loop_delay_seconds{thread}`: the same for the process's helper threads,
 * `worker` (the job worker's thread of `velvet serve`) and `providers` (the provider thread).
 * Each thread samples its own loop and sends its histogram as it stands every few seconds
 * (THREAD_REPORT_MS); a scrape shows the latest. A thread whose loop is held (the provider
 * thread busy with a wave of answers, say) delays every call and lease it handles.
 */
export class ThreadLoopDelayHistograms extends LoopDelayCollector {
  private readonly latest = new Map<string, LoopDelaySnapshot>();

  constructor(registry: Registry) {
    super(
      registry,
      THREAD_NAME,
      "How late each helper thread's event loop turned (worker: the job worker's thread; providers: the provider thread), as of its latest report",
    );
  }

  record(thread: string, snapshot: LoopDelaySnapshot): void {
    this.latest.set(thread, snapshot);
  }

  protected series(): Array<[Record<string, string>, LoopDelaySnapshot]> {
    return [...this.latest].map(([thread, s]) => [{ thread }, s]);
  }
}

/**
 * How many of the histogram's `n` samples are at or below `ns`: the largest percentile whose
 * value is still at or below it, found by bisection (the HDR histogram answers value-at-
 * percentile, not the inverse).
 */
function countAtOrBelow(h: IntervalHistogram, n: number, ns: number): number {
  if (n === 0 || h.max <= ns) return n;
  if (h.min > ns) return 0;
  let lo = 0;
  let hi = 100;
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (h.percentile(mid) <= ns) lo = mid;
    else hi = mid;
  }
  return Math.round((n * lo) / 100);
}
