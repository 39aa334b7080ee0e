/** The page shells: the signed-in layout with its navigation, and the sign-in card. */

import { atLeast, type UserRole } from "../../team/roles.js";
import { SCRIPT, STYLESHEET } from "../assets/asset-routes.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { html, type SafeHtml } from "./html.js";

export type Section = "overview" | "customers" | "alerts" | "settings";
export type SettingsTab =
  | "integrations"
  | "alerts"
  | "billing"
  | "audit"
  | "account"
  | "system"
  | "team"
  | "profile";

const NAV: Array<{ section: Section; href: string; label: string }> = [
  { section: "overview", href: "/", label: "Overview" },
  { section: "customers", href: "/customers", label: "Customers" },
  { section: "alerts", href: "/alerts", label: "Alerts" },
  { section: "settings", href: "/settings/integrations", label: "Settings" },
];

/** Each tab shows to the roles its route admits (the server checks again: role-guard.ts). */
const SETTINGS_TABS: Array<{ tab: SettingsTab; href: string; label: string; role: UserRole }> = [
  { tab: "integrations", href: "/settings/integrations", label: "Integrations", role: "admin" },
  { tab: "alerts", href: "/settings/alerts", label: "Alerts", role: "admin" },
  { tab: "billing", href: "/settings/billing", label: "Billing", role: "member" },
  { tab: "system", href: "/settings/system", label: "System", role: "admin" },
  { tab: "team", href: "/settings/team", label: "Team", role: "admin" },
  { tab: "profile", href: "/settings/profile", label: "Profile", role: "member" },
  { tab: "audit", href: "/settings/audit", label: "Audit log", role: "admin" },
  { tab: "account", href: "/settings/account", label: "Account", role: "owner" },
];

function settingsHome(role: UserRole): string {
  return SETTINGS_TABS.find((t) => atLeast(role, t.role))?.href ?? "/settings/profile";
}

export function csrfField(session: DashboardSession): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${session.csrfToken}">`;
}

function head(title: string): SafeHtml {
  return html`<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Velvet</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${STYLESHEET.path}">
<script src="${SCRIPT.path}" defer></script>`;
}

export interface PageProps {
  title: string;
  session: DashboardSession;
  section: Section;
  body: SafeHtml;
}

export function page({ title, session, section, body }: PageProps): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>${head(title)}</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="topbar">
  <div class="topbar-inner">
    <a class="brand" href="/">Vel<span>vet</span></a>
    <nav class="mainnav" aria-label="Main">
      ${NAV.map((n) =>
        n.section === "settings" ? { ...n, href: settingsHome(session.role) } : n,
      ).map(
        (n) =>
          html`<a href="${n.href}"${n.section === section ? html` aria-current="page"` : ""}>${n.label}</a>`,
      )}
    </nav>
    <div class="account">
      <span class="who">${session.accountName} · ${session.userEmail}</span>
      <form method="post" action="/logout">${csrfField(session)}<button type="submit">Log out</button></form>
    </div>
  </div>
</header>
<main id="main" tabindex="-1">
${budgetBanner(session)}${body}
</main>
</body>
</html>`;
}

/** The month's lookup budget, when 80 % of it is spent or it stopped the paid lookups. */
function budgetBanner(session: DashboardSession): SafeHtml | string {
  if (session.budgetNotice === null) return "";
  const text =
    session.budgetNotice === "spent"
      ? "This month's lookup budget is spent: paid provider lookups have stopped. Orders are still taken and scored on the free signals, and looked up fully when the month turns or the budget is raised."
      : "80 % of this month's lookup budget is spent. When it is spent, paid provider lookups stop until the month turns or the budget is raised.";
  return html`<div class="notice ${session.budgetNotice === "spent" ? "error" : "info"}" role="status" id="budget-notice"><p>${text} <a href="/settings/billing">Billing</a></p></div>`;
}

export function settingsTabs(active: SettingsTab, role: UserRole): SafeHtml {
  return html`<nav class="subnav" aria-label="Settings">
  ${SETTINGS_TABS.filter((t) => atLeast(role, t.role)).map(
    (t) =>
      html`<a href="${t.href}"${t.tab === active ? html` aria-current="page"` : ""}>${t.label}</a>`,
  )}
</nav>`;
}

/** A page without the signed-in chrome: sign-in, sign-up and error pages for visitors. */
export function bareCard(title: string, body: SafeHtml): SafeHtml {
  return html`<!doctype html>
<html lang="en">
<head>${head(title)}</head>
<body>
<main class="auth" id="main">
  <div class="auth-card">
    <a class="brand" href="/">Vel<span>vet</span></a>
    ${body}
  </div>
</main>
</body>
</html>`;
}
