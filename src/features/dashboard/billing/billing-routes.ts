/** GET /settings/billing[?month=YYYY-MM]. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { BUDGET_RULE, parseBudget, setMonthlyBudget } from "../../accounts/set-monthly-budget.js";
import { userActor } from "../../audit/audit-actor.js";
import { getUsage, isMonth, monthOf } from "../../billing/get-usage.js";
import { getBudgetStatus } from "../../billing/monthly-budget.js";
import { getProviderSpend } from "../../billing/provider-spend.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { sessionOf } from "../session/guards.js";
import { memberPage, ownerAction } from "../session/role-guard.js";
import { billingView } from "./billing-view.js";
import { BUDGET_PATH } from "./budget-panel.js";
import { getBillingSummary, lastTwelveMonths } from "./get-billing-summary.js";

export function registerBillingRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { month?: string; budget?: string } }>(
    "/settings/billing",
    memberPage,
    async (request, reply) => {
      const session = sessionOf(request);
      const now = deps.clock.now();
      const currentMonth = monthOf(now);
      const asked = request.query.month ?? "";
      // Any of the last 12 months can be looked at; anything else shows this month.
      const month = isMonth(asked) && lastTwelveMonths(now).includes(asked) ? asked : currentMonth;
      const [usage, providerSpend, budget, summary] = await Promise.all([
        getUsage(deps.db.kysely, session.accountId, month, deps.config.enrichmentPriceUsd),
        getProviderSpend(deps.db.kysely, session.accountId, month),
        getBudgetStatus(deps.db.kysely, session.accountId, currentMonth),
        getBillingSummary(deps.db.kysely, session.accountId, month, now),
      ]);
      return sendPage(
        reply,
        billingView({
          session,
          usage,
          providerSpend,
          budget,
          budgetError: request.query.budget === "invalid" ? `Enter ${BUDGET_RULE}.` : undefined,
          summary,
          currentMonth,
          currentPriceUsd: deps.config.enrichmentPriceUsd,
        }),
      );
    },
  );

  app.post(BUDGET_PATH, ownerAction(deps), async (request, reply) => {
    const session = sessionOf(request);
    const parsed = parseBudget(formField(request.body, "budget"));
    if (!parsed.ok) return seeOther(reply, "/settings/billing?budget=invalid");
    await setMonthlyBudget(
      deps.db.kysely,
      {
        accountId: session.accountId,
        budgetUsd: parsed.budgetUsd,
        actor: userActor(session.userEmail),
        maxAttempts: deps.config.enrichment.maxAttempts,
      },
      deps.clock.now(),
    );
    deps.jobs.notify();
    return seeOther(reply, "/settings/billing");
  });
}
