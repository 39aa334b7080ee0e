/**
 * GET /customers.csv: the Customers page's "Download CSV", every customer the page's filters
 * match (name or e-mail, VIP, status, tier; not only the page shown), for every role that may
 * see customers. The same list as `velvet customer list --csv` (customers/customer-list-*.ts):
 * streamed as it is read, formula-like cells written as text, scoped to the session's account,
 * and recorded in the audit trail.
 */
import { Readable } from "node:stream";
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { customerListChunks } from "../../customers/customer-list-chunks.js";
import { customerListEntries } from "../../customers/customer-list-entries.js";
import { recordCustomerList } from "../../customers/record-customer-list.js";
import { applySecurityHeaders } from "../http/respond.js";
import { pageOptions, sessionOf } from "../session/guards.js";
import { parseCustomerListQuery } from "./customer-list-query.js";

export function registerCustomerCsvRoute(app: FastifyInstance, deps: Deps): void {
  app.get("/customers.csv", pageOptions, async (request, reply) => {
    const session = sessionOf(request);
    const q = parseCustomerListQuery(request.query as Record<string, unknown>);
    const filter = { q: q.q, vip: q.vip, status: q.status, tier: q.tier };
    const actor = userActor(session.userEmail);
    await recordCustomerList(
      deps.db.kysely,
      { accountId: session.accountId, actor, format: "csv", filter },
      deps.clock.now(),
    );
    const entries = customerListEntries(deps.db.kysely, session.accountId, filter);
    const day = new Date(deps.clock.now()).toISOString().slice(0, 10);
    applySecurityHeaders(reply);
    return reply
      .code(200)
      .header("content-type", "text/csv; charset=utf-8; header=present")
      .header("content-disposition", `attachment; filename="velvet-customers-${day}.csv"`)
      .send(Readable.from(customerListChunks(entries, "csv")));
  });
}
