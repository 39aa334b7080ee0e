/**
 * Builds the Fastify application from its dependencies; `server.ts` decides where it listens.
 * Error handling is one place: AppErrors keep their status and message, Fastify's own body and
 * content-type errors are mapped to the same `{error, message}` body, anything else is a
 * logged 500 that reveals nothing.
 */
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  LogController,
} from "fastify";
import type { AppDeps } from "../app-deps.js";
import type { TrustProxy } from "../config.js";
import {
  DatabaseBusyError,
  isDatabaseUnavailable,
  UNAVAILABLE_RETRY_AFTER_SECONDS,
} from "../db/errors.js";
import { registerDashboard } from "../features/dashboard/dashboard-plugin.js";
import { sendNotFoundPage } from "../features/dashboard/html/error-pages.js";
import { createDatabaseHealth } from "../features/health/database-health.js";
import {
  HEALTH_PATHS,
  type Lifecycle,
  registerHealthRoutes,
} from "../features/health/health-routes.js";
import { registerOrderRoutes } from "../features/orders/order-route.js";
import { createSharedKeyRateLimiter } from "../features/rate-limits/shared-key-rate-limiter.js";
import { sharedLimitsBackend } from "../features/shared-limits/shared-limits-backend.js";
import { registerStoreWebhookRoutes } from "../features/store-webhooks/webhook-routes.js";
import { AppError } from "../lib/app-error.js";
import { allTasks } from "../tasks.js";
import { createAccessLogWriter } from "./access-log.js";
import { appErrorAnswer, errorBody } from "./errors.js";
import { REQUEST_ID_HEADER, requestIdOf } from "./request-id.js";

export const BODY_LIMIT_BYTES = 1024 * 1024;

/** The 503 while the database is away (unreachable, restarting, disk full): nothing was written. */
export const UNAVAILABLE_ORDER_MESSAGE =
  "Failed to process order: the service is temporarily unavailable. The order was not processed and a retry is safe.";
const UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Try again shortly.";

export interface AppOptions {
  /** Read by GET /readyz: true once the process has begun shutting down. */
  lifecycle?: Lifecycle;
}

export async function buildApp(deps: AppDeps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log as FastifyBaseLogger,
    // One access-log line per request (onResponse below) instead of Fastify's two.
    logController: new LogController({
      disableRequestLogging: true,
      // The request id's log label is the one job log lines use (jobs/run-job.ts).
      requestIdLogLabel: "requestId",
    }),
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: fastifyTrustProxy(deps.config.trustProxy),
    // Slow or stuck clients must not hold sockets forever.
    requestTimeout: 30_000,
    connectionTimeout: 30_000,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    exposeHeadRoutes: false,
    // X-Request-Id is read (and checked) by requestIdOf.
    requestIdHeader: false,
    genReqId: requestIdOf,
    // A malformed URL (bad percent-encoding) fails before routing; without this Fastify answers
    // with its own body, which carries `code` and `statusCode` besides {error, message}.
    frameworkErrors: (_error, request, reply) => {
      // The reply's generic route types know no status codes here; this one is plain JSON.
      (reply as FastifyReply)
        .code(400)
        .header(REQUEST_ID_HEADER, request.id)
        .header("x-content-type-options", "nosniff")
        .send(errorBody(400, "The request URL is not valid"));
    },
  });

  // Shared by /readyz and the error handler: a request that finds the database away turns
  // readiness red at once.
  const dbHealth = createDatabaseHealth({ db: deps.db, log: deps.log });
  app.addHook("onClose", async () => dbHealth.close());

  // Only JSON is accepted: without the text parser a text/plain body is a 415, not a 400.
  app.removeContentTypeParser("text/plain");

  // First hook of every request, so 404s, 405s and errors carry the id too; and every answer,
  // JSON errors and 413s included, is read as what it says it is. Callback-style hooks: an
  // async one costs a promise per request on the hot path.
  app.addHook("onRequest", (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id);
    reply.header("x-content-type-options", "nosniff");
    done();
  });

  const accessLog = createAccessLogWriter(deps.log);
  app.addHook("onResponse", (request, reply, done) => {
    // A 404 has no route pattern: one label for all of them, whatever the path.
    const route = request.routeOptions.url ?? "unmatched";
    // Never the query string: it carries one-time tokens (links from e-mails) and search terms.
    const details = {
      method: request.method,
      route,
      path: pathOf(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    // Probes every few seconds would drown the access log: they are logged at debug only.
    if (HEALTH_PATHS.has(details.path)) request.log.debug(details, "request");
    else accessLog(request.id, details);
    deps.metrics.httpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      const { status, body } = appErrorAnswer(error);
      return reply.code(status).headers(error.headers).send(body);
    }
    const mapped = mapFrameworkError(error);
    if (mapped) return reply.code(mapped.status).send(errorBody(mapped.status, mapped.message));
    const message = request.url.startsWith("/api/v1/orders")
      ? "Failed to process order"
      : "Internal error";
    if (isDatabaseUnavailable(error)) {
      // Nothing was written (the transaction did not commit): the same request is safe to send
      // again once the database is back. Logged once per outage by dbHealth, not per request.
      dbHealth.failed(error);
      request.log.debug({ err: error }, "database unavailable");
      reply.header("retry-after", String(UNAVAILABLE_RETRY_AFTER_SECONDS));
      const unavailable = request.url.startsWith("/api/v1/orders")
        ? UNAVAILABLE_ORDER_MESSAGE
        : UNAVAILABLE_MESSAGE;
      return reply.code(503).send(errorBody(503, unavailable));
    }
    if (error instanceof DatabaseBusyError) {
      // Nothing was written: the client may simply try again shortly.
      request.log.error({ err: error }, "database busy: another process holds the write lock");
      reply.header("retry-after", String(error.retryAfterSeconds));
      return reply.code(500).send(errorBody(500, message));
    }
    request.log.error({ err: error }, "unhandled error");
    return reply.code(500).send(errorBody(500, message));
  });

  app.setNotFoundHandler((request, reply) => {
    // People get a page; the API (and any client under /api/) keeps the JSON error body.
    if (!request.url.startsWith("/api/")) return sendNotFoundPage(reply);
    reply
      .code(404)
      .send(errorBody(404, `No route for ${request.method} ${request.url.split("?")[0]}`));
  });

  registerHealthRoutes(app, dbHealth, options.lifecycle ?? { shuttingDown: false });
  // One window per key for every process on the database (shared-key-rate-limiter.ts).
  const now = () => deps.clock.now();
  const limiter = createSharedKeyRateLimiter({
    takeWindow: sharedLimitsBackend(deps.db, now).takeWindow,
    now,
    onReachability: (reachable, error) =>
      reachable
        ? deps.log.info("shared per-key rate limits reachable again")
        : deps.log.warn(
            { err: error },
            "shared per-key rate limits unreachable: each process counts its own until the database answers",
          ),
  });
  registerOrderRoutes(app, deps, limiter);
  registerStoreWebhookRoutes(app, deps);
  registerDashboard(app, deps, { tasks: allTasks(deps) });
  return app;
}

/** A request URL without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

/**
 * TRUST_PROXY as Fastify needs it. A hop count becomes proxy-addr's "trust the nearest n hops"
 * function (Express's meaning of a number; Fastify 5 itself treats a number as trusting nothing):
 * with 1, the address Velvet sees is the proxy's, and the last X-Forwarded-For entry, which that
 * proxy wrote, is the client; anything a client put in front of it is ignored.
 */
export function fastifyTrustProxy(
  trust: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "number") return trust === 0 ? false : (_address, hop) => hop < trust;
  return trust;
}

function mapFrameworkError(error: FastifyError): { status: number; message: string } | null {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return { status: 415, message: "Content-Type must be application/json" };
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return {
        status: 413,
        message: `Request body must be at most ${BODY_LIMIT_BYTES} bytes (1 MiB)`,
      };
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { status: 400, message: "Request body must be a JSON object" };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return { status: 400, message: "Request body is not valid JSON" };
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { status: 400, message: "Content-Length does not match the body" };
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return { status: 400, message: "Request body is not valid JSON" };
  }
  return null;
}
