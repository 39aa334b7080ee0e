/**
 * A customer's data from their page: "Download data" (POST, answered with the export document
 * as a JSON attachment) and "Delete this customer's data" (a confirmation page naming what goes
 * and what stays, then POST). Another account's customer is a 404, as everywhere.
 */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { eraseCustomer } from "../../privacy/erase-customer.js";
import { exportCustomer } from "../../privacy/export-customer.js";
import type { PrivacyDeps } from "../../privacy/privacy-registry.js";
import { getCustomerDetail } from "../customers/get-customer-detail.js";
import type { Notice } from "../html/components.js";
import { sendNotFoundPage } from "../html/error-pages.js";
import { applySecurityHeaders, seeOther, sendPage } from "../http/respond.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { customerDeleteView } from "./customer-delete-view.js";

export const CUSTOMER_ERASED_NOTICE: Notice = {
  kind: "success",
  text: "The customer's data is deleted: their details, orders, enrichment, provider answers and alerts. Their charge stays on your bill without them.",
};

type WithCustomer = { Params: { customerId: string } };

export function registerCustomerPrivacyRoutes(
  app: FastifyInstance,
  deps: Deps & PrivacyDeps,
): void {
  app.get<WithCustomer>("/customers/:customerId/delete", pageOptions, async (request, reply) => {
    const session = sessionOf(request);
    const detail = await getCustomerDetail(
      deps.db.kysely,
      session.accountId,
      request.params.customerId,
    );
    if (!detail) return sendNotFoundPage(reply, session);
    return sendPage(reply, customerDeleteView(session, detail));
  });

  app.post<WithCustomer>(
    "/customers/:customerId/delete",
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      const erased = await eraseCustomer(deps, {
        accountId: session.accountId,
        lookup: { customerId: request.params.customerId },
        actor: userActor(session.userEmail),
      });
      if (!erased) return sendNotFoundPage(reply, session);
      return seeOther(reply, "/customers?notice=customer-erased");
    },
  );

  app.post<WithCustomer>(
    "/customers/:customerId/export",
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      const document = await exportCustomer(deps, {
        accountId: session.accountId,
        lookup: { customerId: request.params.customerId },
        actor: userActor(session.userEmail),
      });
      if (!document) return sendNotFoundPage(reply, session);
      applySecurityHeaders(reply);
      return reply
        .code(200)
        .header("content-type", "application/json; charset=utf-8")
        .header(
          "content-disposition",
          `attachment; filename="velvet-customer-${request.params.customerId}.json"`,
        )
        .send(`${JSON.stringify(document, null, 2)}\n`);
    },
  );
}
