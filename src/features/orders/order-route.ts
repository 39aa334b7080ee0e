/**
 * POST /api/v1/orders: authenticate (before anything else is looked at) → the key's rate limit
 * (before any write) → validate → one transaction (submitOrder) → answer. Other methods on the
 * path are a 405 with `Allow: POST`.
 */

import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Deps } from "../../deps.js";
import { AppError, MESSAGES } from "../../lib/app-error.js";
import {
  type AuthenticatedKey,
  authenticateApiKey,
  recordKeyUse,
} from "../api-keys/authenticate-api-key.js";
import { apiKeyFromHeaders } from "../api-keys/key-format.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import { checkRateLimit } from "../rate-limits/check-rate-limit.js";
import type { KeyRateLimiter } from "../rate-limits/key-rate-limiter.js";
import { parseOrderRequest } from "./order-request.js";
import { submitOrder } from "./submit-order.js";

export const ORDERS_PATH = "/api/v1/orders";

declare module "fastify" {
  interface FastifyRequest {
    apiKey?: AuthenticatedKey;
  }
}

const successSchema = {
  type: "object",
  required: ["success", "customerId", "enrichmentStatus"],
  properties: {
    success: { type: "boolean" },
    customerId: { type: "string" },
    orderId: { type: "string" },
    enrichmentStatus: { type: "string" },
  },
} as const;

export function registerOrderRoutes(
  app: FastifyInstance,
  deps: Deps & MetricsDeps,
  limiter: KeyRateLimiter,
): void {
  app.route({
    method: "POST",
    url: ORDERS_PATH,
    schema: { response: { 200: successSchema } },
    onRequest: async (request: FastifyRequest, reply) => {
      const key = await authenticateApiKey(deps, apiKeyFromHeaders(request.headers));
      if (key === null) throw new AppError("unauthorized", MESSAGES.unauthorized);
      reply.headers(await checkRateLimit(limiter, key, deps.config.apiRateLimitPerMinute));
      await recordKeyUse(deps, key);
      request.apiKey = key;
    },
    handler: async (request) => {
      const parsed = parseOrderRequest(request.body);
      if (!parsed.ok) throw new AppError("bad_request", parsed.message);
      const key = request.apiKey as AuthenticatedKey;
      const { customerId, orderId, enrichmentStatus } = await submitOrder(deps, key, parsed.value, {
        requestId: request.id,
      });
      deps.metrics.submission(enrichmentStatus);
      return { success: true, customerId, orderId, enrichmentStatus };
    },
  });

  app.route({
    method: ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"],
    url: ORDERS_PATH,
    handler: async () => {
      throw new AppError("method_not_allowed", `Use POST ${ORDERS_PATH}`, { allow: "POST" });
    },
  });
}
