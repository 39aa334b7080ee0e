/**
 * POST /api/v1/webhooks/shopify/:connectionId and /api/v1/webhooks/woocommerce/:connectionId:
 * the addresses Velvet subscribes a connected store to (webhook-address.ts). The body is read
 * as raw bytes whatever its content type (the signature is over the bytes as sent; WooCommerce's
 * ping is form-encoded), up to WEBHOOK_BODY_LIMIT; everything else is receive-delivery.ts.
 * Answers are JSON: `{received}` on 200, `{error, message}` otherwise.
 */
import type { FastifyInstance } from "fastify";
import type { StoreSyncDeps } from "../store-sync/store-sync-deps.js";
import { receiveDelivery } from "./receive-delivery.js";
import { WEBHOOK_PATH } from "./webhook-address.js";
import type { WebhookPlatform } from "./webhook-platforms.js";

/** An order with hundreds of lines is well under this; Shopify's payloads are JSON of one order. */
export const WEBHOOK_BODY_LIMIT = 5 * 1024 * 1024;

const PLATFORMS: WebhookPlatform[] = ["shopify", "woocommerce"];

export function registerStoreWebhookRoutes(app: FastifyInstance, deps: StoreSyncDeps): void {
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: WEBHOOK_BODY_LIMIT },
      (_request, body, done) => done(null, body),
    );
    for (const platform of PLATFORMS) {
      scope.post<{ Params: { connectionId: string } }>(
        `${WEBHOOK_PATH}/${platform}/:connectionId`,
        { bodyLimit: WEBHOOK_BODY_LIMIT },
        async (request) => {
          const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
          const received = await receiveDelivery(deps, {
            platform,
            connectionId: request.params.connectionId,
            headers: request.headers,
            raw,
          });
          return { received };
        },
      );
    }
  });
}
