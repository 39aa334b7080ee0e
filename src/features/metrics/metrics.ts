/**
 * What the rest of Velvet records, as plain calls on `deps.metrics`. With METRICS_PORT unset
 * every call is a no-op (`noMetrics`) and nothing is collected; with it set, they feed the
 * prom-client registry of `create-prom-metrics.ts`, exposed on the private listener.
 *
 * Glossary of the label values:
 * - route: the Fastify route pattern (`/customers/:id`), or `unmatched` for a 404, so an
 *   attacker probing paths cannot grow the number of series.
 * - outcome (providers): the result's kind: matched, not_found, transient, permanent; reason:
 *   its cause (timeout, network, server_error, rate_limited, circuit_open, pending, aborted,
 *   auth, credits, bad_request, malformed_response, unexpected_status), else the kind again.
 * - outcome (alerts): delivered, retry, failed, or deferred (paced or paused, not sent).
 * - outcome (destinations): delivered, retry, failed, or deferred (asked to wait: a 429,
 *   Shopify's THROTTLED); kind: the destination kind (destination-kinds.ts).
 */
import type { LoopDelaySnapshot } from "./event-loop-delay.js";

export type CircuitState = "closed" | "open" | "half_open";
/** The helper threads whose event loops are reported: the job worker's and the providers'. */
export type HelperThread = "worker" | "providers";

/** What a feature that counts something needs beyond `Deps`. */
export interface MetricsDeps {
  /** Prometheus metrics when METRICS_PORT is set in a long-running process; else no-ops. */
  metrics: Metrics;
}

export interface Metrics {
  readonly enabled: boolean;
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** One accepted order, by the `enrichmentStatus` it answered. */
  submission(enrichmentStatus: string): void;
  /** One provider answer; `seconds` is the call's duration when a call was made. */
  providerCall(provider: string, outcome: string, reason: string, seconds: number | null): void;
  circuitState(provider: string, state: CircuitState): void;
  alertDelivery(channel: string, outcome: string): void;
  destinationDelivery(kind: string, outcome: string): void;
  /** A helper thread's event-loop delay histogram as it stands (event-loop-delay.ts). */
  threadLoopDelay(thread: HelperThread, snapshot: LoopDelaySnapshot): void;
  /** The Prometheus text exposition; the database gauges are read now. */
  render(): Promise<{ contentType: string; body: string }>;
}

export const noMetrics: Metrics = {
  enabled: false,
  httpRequest: () => {},
  submission: () => {},
  providerCall: () => {},
  circuitState: () => {},
  alertDelivery: () => {},
  destinationDelivery: () => {},
  threadLoopDelay: () => {},
  render: async () => ({ contentType: "text/plain; charset=utf-8", body: "" }),
};
