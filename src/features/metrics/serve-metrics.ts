/**
 * Starts the metrics listener when METRICS_PORT is set (serve and worker both call this), and
 * returns how to stop it; without METRICS_PORT there is nothing to stop.
 */

import type { Deps } from "../../deps.js";
import type { MetricsDeps } from "./metrics.js";
import { startMetricsServer } from "./metrics-server.js";

export async function serveMetrics(deps: Deps & MetricsDeps): Promise<{ close(): Promise<void> }> {
  const { port, host } = deps.config.metrics;
  if (port === null || !deps.metrics.enabled) return { close: async () => {} };
  const server = await startMetricsServer(deps.metrics, { host, port }, deps.log);
  deps.log.info({ url: `${server.url}/metrics` }, "metrics are served");
  return server;
}
