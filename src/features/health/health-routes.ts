/**
 * GET /healthz and GET /readyz: operational paths for a load balancer and a process
 * supervisor, not API endpoints. No authentication, small JSON bodies, and the access log
 * writes them at debug level only (http/app.ts), so a probe every second does not flood it.
 *
 * - /healthz: the process is up and its event loop turns. No database call: a database outage
 *   must not get every process restarted by its supervisor.
 * - /readyz: 200 when a write to the database succeeds (a probe, rate-limited:
 *   database-health.ts) and migrations are current; 503 otherwise and from the moment the
 *   process starts shutting down, so the balancer stops sending it requests.
 */
import type { FastifyInstance } from "fastify";
import type { DatabaseHealth, Readiness } from "./database-health.js";

export const HEALTH_PATHS = new Set(["/healthz", "/readyz"]);

export interface Lifecycle {
  readonly shuttingDown: boolean;
}

export function registerHealthRoutes(
  app: FastifyInstance,
  health: DatabaseHealth,
  lifecycle: Lifecycle,
): void {
  const noStore = { "cache-control": "no-store" };
  app.get("/healthz", async (_request, reply) => {
    reply.headers(noStore);
    return { status: "ok" };
  });
  app.get("/readyz", async (request, reply) => {
    reply.headers(noStore);
    const readiness: Readiness = lifecycle.shuttingDown
      ? { ready: false, reason: "shutting_down" }
      : await health.readiness();
    if (readiness.ready) return { status: "ready" };
    // The detail (a database error) stays in the log: the probe is unauthenticated. An outage
    // is logged once when it starts and once when it ends (database-health.ts), not per probe.
    if (readiness.detail !== undefined) {
      request.log.debug({ reason: readiness.reason, detail: readiness.detail }, "not ready");
    }
    return reply.code(503).send({ status: "not_ready", reason: readiness.reason });
  });
}
