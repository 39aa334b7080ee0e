/**
 * Said plainly when no enrichment provider is configured: scores then come from the offline
 * signals alone and what they can reach (briefly on the Overview and Settings → Alerts), and, in
 * full on Settings → System, which environment variables turn providers on and what each brings,
 * from each provider's declaration (provider-registry.ts).
 */
import {
  PROVIDER_NAMES,
  PROVIDERS,
  turnOnSetting,
} from "../../enrichment/providers/provider-registry.js";
import { OFFLINE_FIRST_ORDER_EXAMPLE, OFFLINE_MAX_SCORE } from "../../enrichment/score/weights.js";
import { html, type SafeHtml } from "./html.js";

export const NO_PROVIDERS_TITLE = "No enrichment provider is configured on this server";

/** The short form, for the pages merchants work in; `toSystem` links to the full one. */
export function noProvidersBrief(threshold: number, toSystem: boolean): SafeHtml {
  return html`Scores come from the offline signals alone, which reach at most ${OFFLINE_MAX_SCORE} of 100. ${offlineReach(threshold)} ${
    toSystem
      ? html`How to turn providers on: <a href="/settings/system#server">Settings → System</a>.`
      : "Your Velvet administrator can turn providers on."
  }`;
}

/** The whole notice, for Settings → System, where the operator looks. */
export function noProvidersNotice(providers: readonly string[], threshold: number): SafeHtml {
  if (providers.length > 0) return html``;
  const reach = offlineReach(threshold);
  return html`<div class="notice info" id="no-providers-full">
<p><strong>${NO_PROVIDERS_TITLE}.</strong> Scores come from the offline signals alone (order value, how the order ranks in your store, the ZIP code's median income, a company e-mail address, repeat orders), which reach at most ${OFFLINE_MAX_SCORE} of 100. ${reach}</p>
<p>Your Velvet administrator turns providers on with environment variables: ${turnOnList()}.</p>
</div>`;
}

/** "<code>PDL_API_KEY</code> (People Data Labs: job, …), … and <code>GRAVATAR_ENABLED=true</code> (…)". */
function turnOnList(): SafeHtml {
  const last = PROVIDER_NAMES.length - 1;
  return html`${PROVIDER_NAMES.map((name, i) => {
    const declared = PROVIDERS[name];
    const before = i === 0 ? "" : i === last ? " and " : ", ";
    return html`${before}<code>${turnOnSetting(declared)}</code> (${declared.label}: ${declared.brings})`;
  })}`;
}

/** What the offline signals can do against this threshold, said with a real example. */
export function offlineReach(threshold: number): string {
  const example = OFFLINE_FIRST_ORDER_EXAMPLE;
  const order = `$${example.orderUsd.toLocaleString("en-US")}`;
  const area = `$${example.areaIncomeUsd.toLocaleString("en-US")}`;
  if (OFFLINE_MAX_SCORE <= threshold)
    return `That cannot pass your threshold of ${threshold}: lower it, or turn a provider on.`;
  if (example.score > threshold)
    return `A customer passes your threshold of ${threshold} that way from their first order when it is large and comes from a wealthy area: an order of ${order} or more from a ZIP code with a median household income of ${area} or more, with a company e-mail address, scores ${example.score}.`;
  return `Only a repeat customer with a large order from a wealthy area passes your threshold of ${threshold} that way: a first order scores at most ${example.score}.`;
}
