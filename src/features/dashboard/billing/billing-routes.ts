/** GET /settings/billing[?month=YYYY-MM]. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { getUsage, isMonth, monthOf } from "../../billing/get-usage.js";
import { getProviderSpend } from "../../billing/provider-spend.js";
import { sendPage } from "../http/respond.js";
import { sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import { billingView } from "./billing-view.js";
import { getBillingSummary, lastTwelveMonths } from "./get-billing-summary.js";

export function registerBillingRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { month?: string } }>(
    "/settings/billing",
    memberPage,
    async (request, reply) => {
      const session = sessionOf(request);
      const now = deps.clock.now();
      const currentMonth = monthOf(now);
      const asked = request.query.month ?? "";
      // Any of the last 12 months can be looked at; anything else shows this month.
      const month = isMonth(asked) && lastTwelveMonths(now).includes(asked) ? asked : currentMonth;
      const [usage, providerSpend, summary] = await Promise.all([
        getUsage(deps.db.kysely, session.accountId, month, deps.config.enrichmentPriceUsd),
        getProviderSpend(deps.db.kysely, session.accountId, month),
        getBillingSummary(deps.db.kysely, session.accountId, month, now),
      ]);
      return sendPage(
        reply,
        billingView({
          session,
          usage,
          providerSpend,
          summary,
          currentMonth,
          currentPriceUsd: deps.config.enrichmentPriceUsd,
        }),
      );
    },
  );
}
