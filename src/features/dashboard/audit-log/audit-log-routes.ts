/** GET /settings/audit[?page=N]. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { listAuditEvents } from "../../audit/list-audit-events.js";
import { MAX_PAGE } from "../customers/customer-list-query.js";
import { sendPage } from "../http/respond.js";
import { pageOptions, sessionOf } from "../session/guards.js";
import { auditLogView } from "./audit-log-view.js";

export function registerAuditLogRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { page?: string } }>(
    "/settings/audit",
    pageOptions,
    async (request, reply) => {
      const session = sessionOf(request);
      const asked = Number.parseInt(request.query.page ?? "", 10);
      const page = Number.isFinite(asked) && asked >= 1 ? Math.min(asked, MAX_PAGE) : 1;
      const audit = await listAuditEvents(deps.db.kysely, session.accountId, { page });
      return sendPage(reply, auditLogView(session, audit));
    },
  );
}
