/** A customer's tier (features/customers/tiers.ts) wherever the Customers pages name them. */
import { html, type SafeHtml } from "../html/html.js";

export function tierBadge(tier: string | null): SafeHtml {
  return tier === null ? html`` : html`<span class="badge tier" title="Tier">${tier}</span>`;
}
