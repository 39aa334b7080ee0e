/** GET /settings/billing[?month=YYYY-MM]. */
import type { FastifyInstance } from "fastify";
import type { Deps } from "../../../deps.js";
import { changeAccountSettings } from "../../accounts/settings/change-account-settings.js";
import { monthlyBudgetUsd } from "../../accounts/settings/monthly-budget.js";
import { userActor } from "../../audit/audit-actor.js";
import { getUsage, isMonth, monthOf } from "../../billing/get-usage.js";
import { getBudgetStatus } from "../../billing/monthly-budget.js";
import { getProviderSpend } from "../../billing/provider-spend.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import { actionOptions, sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import { fieldError } from "../settings/setting-fields.js";
import { billingView } from "./billing-view.js";
import { BUDGET_FIELD, BUDGET_PATH } from "./budget-panel.js";
import { getBillingSummary, lastTwelveMonths } from "./get-billing-summary.js";

/** The sentence under a refused budget (the page is shown again after a redirect). */
function budgetProblem(): string {
  const refused = monthlyBudgetUsd.parse("?");
  return fieldError("monthlyBudgetUsd", refused.ok ? "" : refused.problem);
}

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
          budgetError: request.query.budget === "invalid" ? budgetProblem() : undefined,
          summary,
          currentMonth,
          currentPriceUsd: deps.config.enrichmentPriceUsd,
        }),
      );
    },
  );

  // Who may change the budget is the setting's own rule (its declaration's role).
  const access = { config: { access: monthlyBudgetUsd.role } };
  app.post(BUDGET_PATH, { ...actionOptions(deps), ...access }, async (request, reply) => {
    const session = sessionOf(request);
    const parsed = monthlyBudgetUsd.parse(formField(request.body, BUDGET_FIELD));
    if (!parsed.ok) return seeOther(reply, "/settings/billing?budget=invalid");
    await changeAccountSettings(deps, {
      accountId: session.accountId,
      values: { monthlyBudgetUsd: parsed.value },
      actor: userActor(session.userEmail),
    });
    deps.jobs.notify();
    return seeOther(reply, "/settings/billing");
  });
}
