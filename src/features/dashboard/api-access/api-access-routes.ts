/** Settings → Integrations → API Access: list, generate, revoke, regenerate. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { isUuid } from "../../../lib/ids.js";
import { issueApiKey } from "../../api-keys/issue-api-key.js";
import { listApiKeys } from "../../api-keys/list-api-keys.js";
import { revokeApiKey } from "../../api-keys/revoke-api-key.js";
import { userActor } from "../../audit/audit-actor.js";
import type { Notice } from "../html/components.js";
import { sendNotFoundPage } from "../html/error-pages.js";
import { seeOther, sendPage } from "../http/respond.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { apiAccessView } from "./api-access-view.js";
import { flashKey, takeFlashedKey } from "./key-flash.js";
import { regenerateApiKey } from "./regenerate-api-key.js";

const PATH = "/settings/integrations";

const NOTICES: Record<string, Notice> = {
  "key-revoked": {
    kind: "success",
    text: "The key is revoked. Requests using it are refused from now on.",
  },
  "key-already-revoked": { kind: "info", text: "That key was already revoked." },
};

export function registerApiAccessRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/settings", pageOptions, async (_request, reply) => seeOther(reply, PATH));

  app.get<{ Querystring: { notice?: string; welcome?: string } }>(
    PATH,
    pageOptions,
    async (request, reply) => {
      const session = sessionOf(request);
      const keys = await listApiKeys(deps.db.kysely, session.accountId);
      const flashed = takeFlashedKey(request, reply, session, deps.clock.now());
      // Shown only while it is this account's and still active.
      const newKey =
        flashed && keys.some((k) => k.keyId === flashed.keyId && k.status === "active")
          ? flashed
          : null;
      return sendPage(
        reply,
        apiAccessView({
          session,
          keys,
          newKey,
          welcome: request.query.welcome === "1" && newKey !== null,
          notice: NOTICES[request.query.notice ?? ""] ?? null,
          publicBaseUrl: deps.config.publicBaseUrl,
        }),
      );
    },
  );

  app.post(`${PATH}/keys`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const now = deps.clock.now();
    const created = await issueApiKey(
      deps.db.kysely,
      {
        accountId: session.accountId,
        storeId: session.storeId,
        actor: userActor(session.userEmail),
      },
      now,
    );
    flashKey(request, reply, session.rawId, created, now);
    return seeOther(reply, PATH);
  });

  app.post<{ Params: { keyId: string } }>(
    `${PATH}/keys/:keyId/revoke`,
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      const { keyId } = request.params;
      if (!isUuid(keyId)) return sendNotFoundPage(reply, session);
      const result = await revokeApiKey(
        deps.db.kysely,
        keyId,
        deps.clock.now(),
        session.accountId,
        userActor(session.userEmail),
      );
      if (result === "not_found") return sendNotFoundPage(reply, session);
      return seeOther(
        reply,
        `${PATH}?notice=${result === "revoked" ? "key-revoked" : "key-already-revoked"}`,
      );
    },
  );

  app.post<{ Params: { keyId: string } }>(
    `${PATH}/keys/:keyId/regenerate`,
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      const { keyId } = request.params;
      if (!isUuid(keyId)) return sendNotFoundPage(reply, session);
      const now = deps.clock.now();
      const actor = userActor(session.userEmail);
      const result = await regenerateApiKey(deps.db.kysely, session.accountId, keyId, now, actor);
      if (result.kind === "not_found") return sendNotFoundPage(reply, session);
      if (result.kind === "already_revoked")
        return seeOther(reply, `${PATH}?notice=key-already-revoked`);
      flashKey(request, reply, session.rawId, { keyId: result.keyId, apiKey: result.apiKey }, now);
      return seeOther(reply, PATH);
    },
  );
}
