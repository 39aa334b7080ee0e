/**
 * Said plainly on the Overview and Settings → Alerts when no enrichment provider is configured:
 * scores then come from the offline signals alone, what they can reach, and which environment
 * variables turn providers on (and what Gravatar, the free one, sends out).
 */
import { OFFLINE_MAX_SCORE } from "../../enrichment/score/weights.js";
import { html, type SafeHtml } from "./html.js";

export function noProvidersNotice(providers: readonly string[], threshold: number): SafeHtml {
  if (providers.length > 0) return html``;
  const reach =
    OFFLINE_MAX_SCORE > threshold
      ? `Only an exceptional first order passes your threshold of ${threshold} that way.`
      : `That cannot pass your threshold of ${threshold}: lower it, or turn a provider on.`;
  return html`<div class="notice info" role="status" id="no-providers">
<p><strong>No enrichment provider is configured on this server.</strong> Scores come from the offline signals alone (order value, how the order ranks in your store, the ZIP code's median income, a company e-mail address, repeat orders), which reach at most ${OFFLINE_MAX_SCORE} of 100. ${reach}</p>
<p>Your Velvet administrator turns providers on with environment variables: <code>PDL_API_KEY</code> (People Data Labs: job, seniority, company), <code>ENRICHLAYER_API_KEY</code> (social profiles, job), <code>FULLCONTACT_API_KEY</code> (income, net worth, home value) and <code>GRAVATAR_ENABLED=true</code> (free, no paid plan: it sends Gravatar the SHA-256 hash of each new customer's e-mail address, never the address itself, and reads their public profile and linked social accounts).</p>
</div>`;
}
