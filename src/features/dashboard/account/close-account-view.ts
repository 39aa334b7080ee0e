/** Settings → Account: closing the account, confirmed with the owner's password. */
import { plural } from "../../../lib/plural.js";
import { pageHead } from "../html/components.js";
import { field } from "../html/fields.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page, settingsTabs } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";

export interface CloseAccountProps {
  session: DashboardSession;
  customers: number;
  error?: string;
}

export function closeAccountView(p: CloseAccountProps): SafeHtml {
  return page({
    title: "Account",
    session: p.session,
    section: "settings",
    body: html`<div class="breadcrumb">Settings</div>
${pageHead("Account", html`${p.session.accountName} · signed in as ${p.session.userEmail}`)}
${settingsTabs("account", p.session.role)}
<section class="panel" aria-labelledby="close-title">
  <h2 id="close-title">Close this account</h2>
  <p>Closing the account cannot be undone. At once, every API key is revoked (your store's orders are refused), every connected Shopify or WooCommerce store is disconnected (its credentials deleted, no order synced again), everyone is signed out and the logins are removed. Then ${p.customers === 1 ? "the 1 customer is" : `all ${plural(p.customers, "customer")} are`} deleted with their orders, enrichment, data sources' answers and alerts, as when you delete one customer's data.</p>
  <p class="muted">Kept: your billing records (each charge's amount, price and month, without the customer) and the audit log.</p>
  <form method="post" action="/settings/account/close" novalidate>
    ${csrfField(p.session)}
    ${field({ name: "password", label: "Your password, to confirm", type: "password", autocomplete: "current-password", required: true, error: p.error })}
    <div class="actions"><button type="submit" class="danger">Close account and delete all customer data</button></div>
  </form>
</section>`,
  });
}
