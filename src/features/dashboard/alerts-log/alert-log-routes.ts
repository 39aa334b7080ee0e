/** GET /alerts: the alert log. */
import type { FastifyInstance } from "fastify";
import type { AlertStatus } from "../../../db/schema.js";
import type { Deps } from "../../../deps.js";
import { configuredChannels, readChannelValues } from "../../alerts/channels/channel-registry.js";
import { sendPage } from "../http/respond.js";
import { sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import { alertLogView } from "./alert-log-view.js";
import { listAlertLog } from "./list-alert-log.js";

const STATUSES: ReadonlySet<string> = new Set(["pending", "waiting", "delivered", "failed"]);

export function registerAlertLogRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { status?: string; page?: string } }>(
    "/alerts",
    memberPage,
    async (request, reply) => {
      const session = sessionOf(request);
      const status = STATUSES.has(request.query.status ?? "")
        ? (request.query.status as AlertStatus)
        : null;
      const n = Number.parseInt(request.query.page ?? "", 10);
      const pageNo = Number.isFinite(n) && n >= 1 ? Math.min(n, 10_000) : 1;
      const [{ rows, total }, values] = await Promise.all([
        listAlertLog(deps.db.kysely, session.accountId, { status, page: pageNo }),
        readChannelValues(deps.db.kysely, session.accountId, deps.config.storeSync.tokenKey),
      ]);
      const channelsConfigured = Object.values(configuredChannels(values)).some(Boolean);
      return sendPage(
        reply,
        alertLogView({ session, rows, total, status, page: pageNo, channelsConfigured }),
      );
    },
  );
}
