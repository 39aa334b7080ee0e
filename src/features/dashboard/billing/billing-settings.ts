/**
 * Settings → Billing's settings: every setting declared for the page (`form.page: "billing"`,
 * accounts/settings/account-settings.ts) in its panel, in declared order, with a field for
 * those whose role may change it (dashboard/settings/setting-fields.ts), in one form posted to
 * the page's own address, with the month being looked at (so a refusal or a save comes back to
 * it). A setting's panel may carry the page's own content above its field (the budget's bar).
 */
import { notice } from "../html/components.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import {
  mayChange,
  pageSettings,
  type SettingErrors,
  type SettingLeads,
  type SettingTexts,
  settingPanels,
} from "../settings/setting-fields.js";

export const BILLING_PATH = "/settings/billing";

export function billingSettings(
  session: DashboardSession,
  texts: SettingTexts,
  errors: SettingErrors,
  leads: SettingLeads,
  /** The month shown, when it is not the current one. */
  pastMonth: string | null,
): SafeHtml {
  const panels = settingPanels("billing", texts, errors, session.role, leads);
  const changes = pageSettings("billing").some(({ key }) => mayChange(session.role, key));
  if (!changes) return panels;
  return html`${Object.keys(errors).length > 0 ? notice({ kind: "error", text: "Nothing was saved: please correct the fields marked below." }) : ""}
<form method="post" action="${billingAddress(pastMonth)}" novalidate>${csrfField(session)}
${panels}
<div class="actions"><button type="submit">Save billing settings</button></div>
</form>`;
}

/** The page's address showing `pastMonth` (YYYY-MM), or the current month. */
export function billingAddress(pastMonth: string | null): string {
  return pastMonth === null ? BILLING_PATH : `${BILLING_PATH}?month=${pastMonth}`;
}
