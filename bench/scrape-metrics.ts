/**
 * Reads a Velvet process's Prometheus metrics (its METRICS_PORT listener) as the benchmarks need
 * them: histograms' buckets at one moment, the difference between two moments, and a quantile
 * of that difference computed as Prometheus's `histogram_quantile` does (linear within the
 * bucket), so the figures are the ones an operator's dashboard would show.
 */

export interface HistogramSnapshot {
  /** Cumulative counts by upper bound (seconds), +Inf last. */
  buckets: Array<{ le: number; count: number }>;
  sum: number;
  count: number;
}

export type MetricsSnapshot = Map<string, HistogramSnapshot>;

/** Every histogram in the text, by name and labels other than `le` (e.g. `x{kind="major"}`). */
export function parseHistograms(text: string): MetricsSnapshot {
  const out: MetricsSnapshot = new Map();
  const get = (key: string) => {
    let h = out.get(key);
    if (h === undefined) {
      h = { buckets: [], sum: 0, count: 0 };
      out.set(key, h);
    }
    return h;
  };
  for (const line of text.split("\n")) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (m === null) continue;
    const [, name = "", rawLabels = "", rawValue = ""] = m;
    const value = Number(rawValue);
    const labels = rawLabels.split(",").filter((l) => l !== "");
    const le = labels.find((l) => l.startsWith("le="));
    const rest = labels.filter((l) => !l.startsWith("le=")).join(",");
    const series = (base: string) => (rest === "" ? base : `${base}{${rest}}`);
    if (name.endsWith("_bucket") && le !== undefined) {
      const bound = le.slice(4, -1);
      get(series(name.slice(0, -7))).buckets.push({
        le: bound === "+Inf" ? Number.POSITIVE_INFINITY : Number(bound),
        count: value,
      });
    } else if (name.endsWith("_sum")) {
      get(series(name.slice(0, -4))).sum = value;
    } else if (name.endsWith("_count")) {
      get(series(name.slice(0, -6))).count = value;
    }
  }
  for (const [key, h] of out) if (h.buckets.length === 0) out.delete(key);
  return out;
}

export async function scrapeMetrics(url: string): Promise<MetricsSnapshot> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parseHistograms(await response.text());
}

/** What was observed between two snapshots of the same series. */
export function histogramDelta(
  before: HistogramSnapshot | undefined,
  after: HistogramSnapshot,
): HistogramSnapshot {
  return {
    buckets: after.buckets.map((b, i) => ({
      le: b.le,
      count: b.count - (before?.buckets[i]?.count ?? 0),
    })),
    sum: after.sum - (before?.sum ?? 0),
    count: after.count - (before?.count ?? 0),
  };
}

/** Prometheus's histogram_quantile: linear within the bucket the rank falls in. */
export function histogramQuantile(q: number, h: HistogramSnapshot): number | null {
  if (h.count <= 0) return null;
  const rank = q * h.count;
  let lowerBound = 0;
  let lowerCount = 0;
  for (const b of h.buckets) {
    if (b.count >= rank) {
      if (!Number.isFinite(b.le)) return lowerBound;
      const inBucket = b.count - lowerCount;
      return inBucket <= 0
        ? b.le
        : lowerBound + ((b.le - lowerBound) * (rank - lowerCount)) / inBucket;
    }
    lowerBound = b.le;
    lowerCount = b.count;
  }
  return lowerBound;
}

/** The smallest bound at or under which every observation lies: "the largest was ≤ this". */
export function histogramMaxBound(h: HistogramSnapshot): number | null {
  if (h.count <= 0) return null;
  return h.buckets.find((b) => b.count >= h.count)?.le ?? null;
}
