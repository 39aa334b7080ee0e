/** GET /customers, GET /customers.csv and GET /customers/:customerId. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { accountTiers } from "../../customers/account-tiers.js";
import { sendNotFoundPage } from "../html/error-pages.js";
import { sendPage } from "../http/respond.js";
import { CUSTOMER_ERASED_NOTICE } from "../privacy/customer-privacy-routes.js";
import { sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import { registerCustomerCsvRoute } from "./customer-csv-route.js";
import { customerDetailView } from "./customer-detail-view.js";
import { parseCustomerListQuery } from "./customer-list-query.js";
import { customerListView } from "./customer-list-view.js";
import { getCustomerDetail } from "./get-customer-detail.js";
import { listCustomers } from "./list-customers.js";

export function registerCustomerRoutes(app: FastifyInstance, deps: Deps): void {
  app.get("/customers", memberPage, async (request, reply) => {
    const session = sessionOf(request);
    const query = parseCustomerListQuery(request.query as Record<string, unknown>);
    const tiers = await accountTiers(deps.db.kysely, session.accountId);
    const { rows, total } = await listCustomers(deps.db.kysely, session.accountId, query, tiers);
    const erased = (request.query as Record<string, unknown>).notice === "customer-erased";
    const notice = erased ? CUSTOMER_ERASED_NOTICE : null;
    return sendPage(reply, customerListView({ session, query, rows, total, tiers, notice }));
  });

  registerCustomerCsvRoute(app, deps);

  app.get<{ Params: { customerId: string } }>(
    "/customers/:customerId",
    memberPage,
    async (request, reply) => {
      const session = sessionOf(request);
      const detail = await getCustomerDetail(
        deps.db.kysely,
        session.accountId,
        request.params.customerId,
      );
      // Another account's customer and a malformed id look exactly like an unknown one.
      if (!detail) return sendNotFoundPage(reply, session);
      return sendPage(reply, customerDetailView(session, detail));
    },
  );
}
