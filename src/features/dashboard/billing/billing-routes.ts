/**
 * GET /settings/billing[?month=YYYY-MM], and POST /settings/billing: the page's declared
 * settings (billing-settings.ts), each read by its own rule and changed by the roles its
 * declaration allows. A refused form is answered with the page itself (400), what was typed
 * kept and each refused field's sentence under it; nothing is saved.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import { changeAccountSettings } from "../../accounts/settings/change-account-settings.js";
import { readAccountSettings } from "../../accounts/settings/read-account-settings.js";
import { userActor } from "../../audit/audit-actor.js";
import { getUsage, isMonth, monthOf } from "../../billing/get-usage.js";
import { getBudgetStatus } from "../../billing/monthly-budget.js";
import { getProviderSpend } from "../../billing/provider-spend.js";
import { seeOther, sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { actionOptions, sessionOf } from "../session/guards.js";
import { memberPage } from "../session/role-guard.js";
import {
  pageRole,
  readSettingTexts,
  type SettingErrors,
  type SettingTexts,
  savedSettingTexts,
  submittedSettingTexts,
} from "../settings/setting-fields.js";
import { BILLING_PATH, billingAddress } from "./billing-settings.js";
import { billingView } from "./billing-view.js";
import { getBillingSummary, lastTwelveMonths } from "./get-billing-summary.js";

async function render(
  deps: Deps,
  reply: FastifyReply,
  session: DashboardSession,
  askedMonth: string,
  refused?: { texts: SettingTexts; errors: SettingErrors },
) {
  const now = deps.clock.now();
  const currentMonth = monthOf(now);
  const month = shownMonth(askedMonth, now) ?? currentMonth;
  const [usage, providerSpend, budget, summary, settings] = await Promise.all([
    getUsage(deps.db.kysely, session.accountId, month, deps.config.enrichmentPriceUsd),
    getProviderSpend(deps.db.kysely, session.accountId, month),
    getBudgetStatus(deps.db.kysely, session.accountId, currentMonth),
    getBillingSummary(deps.db.kysely, session.accountId, month, now),
    readAccountSettings(deps.db.kysely, session.accountId),
  ]);
  if (!settings) throw new Error(`account ${session.accountId} does not exist`);
  return sendPage(
    reply,
    billingView({
      session,
      usage,
      providerSpend,
      budget,
      settings: { ...savedSettingTexts("billing", settings), ...refused?.texts },
      settingErrors: refused?.errors ?? {},
      summary,
      currentMonth,
      currentPriceUsd: deps.config.enrichmentPriceUsd,
    }),
    refused ? 400 : 200,
  );
}

/** Any of the last 12 months but this one can be looked at; null: this month is shown. */
function shownMonth(askedMonth: string, now: number): string | null {
  if (!isMonth(askedMonth) || askedMonth === monthOf(now)) return null;
  return lastTwelveMonths(now).includes(askedMonth) ? askedMonth : null;
}

export function registerBillingRoutes(app: FastifyInstance, deps: Deps): void {
  app.get<{ Querystring: { month?: string } }>(BILLING_PATH, memberPage, async (request, reply) =>
    render(deps, reply, sessionOf(request), request.query.month ?? ""),
  );

  // Open to the lowest role that may change one of the page's settings (the budget: owners);
  // the form is read for the settings the poster's role may change, each by its declaration.
  const role = pageRole("billing");
  if (role === null) return;
  const access = { config: { access: role } };
  const post = { ...actionOptions(deps), ...access };
  app.post<{ Querystring: { month?: string } }>(BILLING_PATH, post, async (request, reply) => {
    const session = sessionOf(request);
    const asked = request.query.month ?? "";
    const texts = submittedSettingTexts(request.body, "billing", session.role);
    const { values, errors } = readSettingTexts(texts);
    if (Object.keys(errors).length > 0) {
      return render(deps, reply, session, asked, { texts, errors });
    }
    await changeAccountSettings(deps, {
      accountId: session.accountId,
      values,
      actor: userActor(session.userEmail),
    });
    // A raised budget may have requeued lookups it held back.
    deps.jobs.notify();
    return seeOther(reply, billingAddress(shownMonth(asked, deps.clock.now())));
  });
}
