/**
 * The Prometheus side of `Metrics`: one prom-client registry per process (not the library's
 * global one), Node's default process metrics, and the series documented in docs/operating.md
 * ("Operating Velvet"). Recording on the request path is a Map lookup and an increment: the
 * labelled children are created once per label combination and kept. The queue and the SQLite
 * WAL are read when Prometheus scrapes, never on the request path.
 */
import fs from "node:fs";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Db } from "../../db/connect.js";
import type { Clock } from "../../lib/clock.js";
import { EventLoopDelayHistogram, ThreadLoopDelayHistograms } from "./event-loop-delay.js";
import type { CircuitState, Metrics } from "./metrics.js";
import { type JobStats, readJobStats } from "./read-job-stats.js";
import { readStoreConnections } from "./read-store-connections.js";
import { RequestHistogram } from "./request-histogram.js";

// The package's version: the same from src/ (tests) and dist/ (built), three levels up.
export const RELEASE: string = JSON.parse(
  fs.readFileSync(new URL("../../../package.json", import.meta.url), "utf8"),
).version;

const CIRCUIT_STATES: CircuitState[] = ["closed", "open", "half_open"];
const JOB_STATES = ["due", "running", "scheduled", "given_up"] as const;

export interface PromMetricsDeps {
  db: Db;
  clock: Clock;
  /** The SQLite file whose WAL size is reported; null on PostgreSQL. */
  sqliteFile: string | null;
  /** Providers whose circuit starts closed (the configured ones). */
  providers?: string[];
}

export function createPromMetrics(deps: PromMetricsDeps): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  new EventLoopDelayHistogram(registry);
  const threadDelays = new ThreadLoopDelayHistograms(registry);

  const httpDuration = new RequestHistogram(
    "velvet_http_request_duration_seconds",
    "HTTP requests by method, route pattern and status, with their duration",
    [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registry,
  );
  // Counted in a plain map on the request path, handed to prom-client when it is scraped.
  const submitted = new Map<string, number>();
  new Counter({
    name: "velvet_order_submissions_total",
    help: "Accepted POST /api/v1/orders by the enrichmentStatus answered",
    labelNames: ["enrichment_status"],
    registers: [registry],
    collect() {
      this.reset();
      for (const [status, n] of submitted) this.inc({ enrichment_status: status }, n);
    },
  });
  const providerCalls = new Counter({
    name: "velvet_provider_calls_total",
    help: "Enrichment provider answers by provider, outcome and reason",
    labelNames: ["provider", "outcome", "reason"],
    registers: [registry],
  });
  const providerDuration = new Histogram({
    name: "velvet_provider_call_duration_seconds",
    help: "Duration of enrichment provider calls that reached the network",
    labelNames: ["provider", "outcome"],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 8, 13, 20, 30],
    registers: [registry],
  });
  const circuit = new Gauge({
    name: "velvet_provider_circuit_state",
    help: "1 for the current state of each provider's circuit breaker (per process)",
    labelNames: ["provider", "state"],
    registers: [registry],
  });
  const alertDeliveries = new Counter({
    name: "velvet_alert_deliveries_total",
    help: "VIP alert delivery attempts by channel and outcome",
    labelNames: ["channel", "outcome"],
    registers: [registry],
  });
  const destinationDeliveries = new Counter({
    name: "velvet_destination_deliveries_total",
    help: "Destination delivery attempts (webhooks, Shopify, Klaviyo) by kind and outcome",
    labelNames: ["kind", "outcome"],
    registers: [registry],
  });
  // prom-client starts every metric's collect in the same turn: the two queue gauges share
  // one read per scrape (the snapshot is dropped on the next turn, so each scrape reads anew).
  let snapshot: Promise<JobStats[]> | null = null;
  const jobStats = (): Promise<JobStats[]> => {
    if (snapshot === null) {
      snapshot = readJobStats(deps.db, deps.clock.now());
      setImmediate(() => {
        snapshot = null;
      });
    }
    return snapshot;
  };
  new Gauge({
    name: "velvet_jobs",
    help: "Jobs in the queue by task and state (the whole database, not this process)",
    labelNames: ["task", "state"],
    registers: [registry],
    async collect() {
      const stats = await jobStats();
      this.reset();
      for (const s of stats) {
        const values = {
          due: s.due,
          running: s.running,
          scheduled: s.scheduled,
          given_up: s.givenUp,
        };
        for (const state of JOB_STATES) this.set({ task: s.task, state }, values[state]);
      }
    },
  });
  new Gauge({
    name: "velvet_job_oldest_due_age_seconds",
    help: "How long the longest-waiting due job of each task has been due (0: none due)",
    labelNames: ["task"],
    registers: [registry],
    async collect() {
      const stats = await jobStats();
      const now = deps.clock.now();
      this.reset();
      for (const s of stats) {
        this.set(
          { task: s.task },
          s.oldestDueMs === null ? 0 : Math.max(0, now - s.oldestDueMs) / 1000,
        );
      }
    },
  });
  new Gauge({
    name: "velvet_store_connections",
    help: "Connected stores by platform, state (active, paused, broken) and how their orders arrive (webhooks: active, failing, off)",
    labelNames: ["platform", "state", "webhooks"],
    registers: [registry],
    async collect() {
      const counts = await readStoreConnections(deps.db);
      this.reset();
      for (const c of counts) {
        this.set({ platform: c.platform, state: c.state, webhooks: c.webhooks }, c.count);
      }
    },
  });
  if (deps.sqliteFile !== null && deps.sqliteFile !== ":memory:") {
    const walFile = `${deps.sqliteFile}-wal`;
    new Gauge({
      name: "velvet_sqlite_wal_bytes",
      help: "Size of the SQLite write-ahead log file",
      registers: [registry],
      collect() {
        this.set(fs.existsSync(walFile) ? fs.statSync(walFile).size : 0);
      },
    });
  }

  // What is running, as Prometheus' `*_build_info` convention has it: one series whose value is
  // 1 and whose labels name the release, kept off every other metric (a label that changed with
  // each build would start new series for all of them at each deploy).
  new Gauge({
    name: "velvet_build_info",
    help: "The running Velvet: its release and Node.js version (always 1)",
    labelNames: ["version", "node_version"],
    registers: [registry],
  }).set({ version: RELEASE, node_version: process.versions.node }, 1);

  const setCircuit = (provider: string, state: CircuitState) => {
    for (const s of CIRCUIT_STATES) circuit.set({ provider, state: s }, s === state ? 1 : 0);
  };
  for (const provider of deps.providers ?? []) setCircuit(provider, "closed");

  return {
    enabled: true,
    httpRequest(method, route, status, seconds) {
      const key = `${method} ${route} ${status}`;
      if (!httpDuration.has(key))
        httpDuration.define(key, { method, route, status: String(status) });
      httpDuration.observe(key, seconds);
    },
    submission(enrichmentStatus) {
      submitted.set(enrichmentStatus, (submitted.get(enrichmentStatus) ?? 0) + 1);
    },
    providerCall(provider, outcome, reason, seconds) {
      providerCalls.labels(provider, outcome, reason).inc();
      if (seconds !== null) providerDuration.labels(provider, outcome).observe(seconds);
    },
    circuitState: setCircuit,
    alertDelivery(channel, outcome) {
      alertDeliveries.labels(channel, outcome).inc();
    },
    destinationDelivery(kind, outcome) {
      destinationDeliveries.labels(kind, outcome).inc();
    },
    threadLoopDelay(thread, snapshot) {
      threadDelays.record(thread, snapshot);
    },
    async render() {
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
