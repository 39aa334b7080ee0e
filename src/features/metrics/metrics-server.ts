/**
 * The private listener Prometheus scrapes: GET /metrics on METRICS_HOST:METRICS_PORT (default
 * host 127.0.0.1), apart from the public port so the metrics are never exposed by accident
 * with the API. Anything else is a 404; a failed collection (database down) is a 500 with the
 * reason in the log, so the scrape shows as failed rather than as stale numbers.
 */
import http from "node:http";
import type { Logger } from "pino";
import { listenError } from "../../lib/listen-error.js";
import type { Metrics } from "./metrics.js";

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(
  metrics: Metrics,
  where: { host: string; port: number },
  log: Pick<Logger, "error">,
): Promise<MetricsServer> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? "").split("?")[0];
    if (request.method !== "GET" || path !== "/metrics") {
      response.writeHead(404, { "content-type": "text/plain; charset=utf-8" });
      response.end("Not found: metrics are at GET /metrics\n");
      return;
    }
    metrics.render().then(
      ({ contentType, body }) => {
        response.writeHead(200, { "content-type": contentType, "cache-control": "no-store" });
        response.end(body);
      },
      (error: unknown) => {
        log.error({ err: error }, "collecting metrics failed");
        response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
        response.end("collecting metrics failed\n");
      },
    );
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error) =>
      reject(listenError(error, where.host, where.port, "METRICS_PORT and METRICS_HOST")),
    );
    server.listen(where.port, where.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : where.port;
  const host = where.host.includes(":") ? `[${where.host}]` : where.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
