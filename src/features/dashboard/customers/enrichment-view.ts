/** The customer page's enrichment panels: status, score against the threshold, and why. */
import type { Selectable } from "kysely";
import type { EnrichmentStatus, EnrichmentsTable } from "../../../db/schema.js";
import { formatUsd } from "../../../lib/money.js";
import { readStoredSignals } from "../../enrichment/score/read-stored-signals.js";
import type { ScoreSignal } from "../../enrichment/score/score-signal.js";
import { seniorityLabel, signalLabel } from "../../enrichment/score/signal-labels.js";
import { formatSignalValue } from "../../enrichment/score/signal-values.js";
import { enrichmentBadge, vipBadge } from "../html/components.js";
import { formatCount, timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { type ProfileView, parseProfile } from "./enrichment-details.js";
import type { CustomerDetail } from "./get-customer-detail.js";

/** The score on a 0–100 track with the threshold marked; numbers only, so safe to draw. */
function meter(score: number, threshold: number, vip: boolean): SafeHtml {
  const s = Math.max(0, Math.min(100, score));
  const t = Math.max(0, Math.min(100, threshold));
  return html`<div class="meter"><svg viewBox="0 0 100 4" preserveAspectRatio="none" aria-hidden="true">
<rect x="0" y="0" width="${s}" height="4" fill="${vip ? "#6b3fd4" : "#9c95ad"}"></rect>
<rect x="${Math.max(0, t - 0.4)}" y="0" width="0.8" height="4" fill="#1d1b26"></rect>
</svg></div>`;
}

function statusText(status: EnrichmentStatus, e: Selectable<EnrichmentsTable> | null): SafeHtml {
  if (status === "pending") {
    return html`<p class="muted">Enrichment is running: results usually arrive within seconds. Reload this page to see them.</p>`;
  }
  if (status === "failed") {
    return html`<p>Enrichment did not complete${e?.last_error ? html`: <span class="wrap-anywhere">${e.last_error}</span>` : ""}.
It is retried automatically with this customer's next order.</p>`;
  }
  return html``;
}

export function enrichmentPanel(d: CustomerDetail, accountThreshold: number): SafeHtml {
  const e = d.enrichment;
  const status = d.customer.enrichment_status;
  const threshold = e?.threshold ?? accountThreshold;
  const scored = e !== null && e.score !== null;
  const vip = e?.vip === 1;
  return html`<section class="panel" aria-labelledby="enrichment-title">
  <div class="panel-head"><h2 id="enrichment-title">Enrichment</h2>${enrichmentBadge(status)}</div>
  ${
    scored
      ? html`<div class="score-line"><span class="score">${e.score}</span><span class="muted">of 100 · threshold ${threshold}</span> ${vipBadge(vip)}</div>
  ${meter(e.score ?? 0, threshold, vip)}
  <p>${vip ? html`<strong>VIP:</strong> the score is above the threshold of ${threshold}.` : html`Not a VIP: the score is not above the threshold of ${threshold}.`}</p>`
      : ""
  }
  ${statusText(status, e)}
  <dl class="facts small">
    <dt>Attempts</dt><dd>${e?.attempts ?? 0}</dd>
    <dt>Enriched</dt><dd>${timeTag(e?.enriched_at ?? null, true, "Not yet")}</dd>
    ${e?.vip_since ? html`<dt>VIP since</dt><dd>${timeTag(e.vip_since)}</dd>` : ""}
    ${e?.rejudged_at ? html`<dt>Re-scored</dt><dd>${timeTag(e.rejudged_at)} <span class="muted">on later orders, no provider asked</span></dd>` : ""}
    ${e?.vip_changed_at ? html`<dt>${vip ? "Became a VIP" : "Stopped being a VIP"}</dt><dd>${timeTag(e.vip_changed_at)}: ${e.vip_change_reason ?? ""}</dd>` : ""}
    ${e?.last_error && status !== "failed" ? html`<dt>Last error</dt><dd>${e.last_error}</dd>` : ""}
  </dl>
</section>`;
}

function formatValue(signal: string, v: ScoreSignal["value"]): string {
  return formatSignalValue(signal, v) ?? "—";
}

export function signalsPanel(d: CustomerDetail): SafeHtml {
  const signals = readStoredSignals(d.enrichment?.signals).sort((a, b) => b.points - a.points);
  const total = signals.reduce((s, x) => s + x.points, 0);
  return html`<section class="panel" aria-labelledby="signals-title">
  <h2 id="signals-title">Why this score</h2>
  ${
    signals.length === 0
      ? html`<p class="muted">No signals yet. They appear here once enrichment completes.</p>`
      : html`<div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Signal</th><th scope="col">Value</th><th scope="col">Source</th><th scope="col" class="num">Points</th></tr></thead>
    <tbody>${signals.map(
      (s) => html`<tr>
      <td class="primary-cell">${signalLabel(s.signal)}</td>
      <td data-label="Value" class="wrap-anywhere">${formatValue(s.signal, s.value)}</td>
      <td data-label="Source">${s.source}${s.confidence ? html`<div class="muted small">${s.confidence}</div>` : ""}</td>
      <td data-label="Points" class="num ${s.points > 0 ? "points-pos" : "points-zero"}">${s.points > 0 ? `+${s.points}` : s.points}</td>
    </tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row" colspan="3">Total${d.enrichment?.score !== null && d.enrichment?.score !== total ? " (capped at 100)" : ""}</th><td class="num"><strong>${d.enrichment?.score ?? total}</strong></td></tr></tfoot>
  </table></div>`
  }
</section>`;
}

const usd = (n: number | undefined) => (n === undefined ? undefined : formatUsd(n));

export function profilePanel(d: CustomerDetail): SafeHtml {
  const p: ProfileView = parseProfile(d.enrichment?.profile);
  const facts: Array<[string, string | undefined]> = [
    ["Title", p.title],
    ["Seniority", p.seniority ? seniorityLabel(p.seniority) : undefined],
    ["Company", p.company ?? p.companyDomain],
    [
      "Company size",
      p.companyEmployees === undefined
        ? undefined
        : `${formatCount(p.companyEmployees)}+ employees`,
    ],
    ["Company revenue", usd(p.companyRevenueUsd)],
    ["Inferred salary", usd(p.inferredSalaryUsd)],
    ["Household income", usd(p.householdIncomeUsd)],
    ["Net worth", usd(p.netWorthUsd)],
    ["Home value", usd(p.homeValueUsd)],
    ["Location", p.location],
  ];
  const shown = facts.filter((f): f is [string, string] => f[1] !== undefined && f[1] !== "");
  const social = p.social ?? [];
  if (shown.length === 0 && social.length === 0) return html``;
  return html`<section class="panel" aria-labelledby="profile-title">
  <h2 id="profile-title">Profile</h2>
  <dl class="facts">${shown.map(([k, v]) => html`<dt>${k}</dt><dd>${v}</dd>`)}${social.map(
    (s) =>
      html`<dt>${s.network.charAt(0).toUpperCase() + s.network.slice(1)}</dt><dd>${s.handle ?? s.url ?? "profile"}${
        s.followers !== null && s.followers !== undefined
          ? html` <span class="muted">· ${formatCount(s.followers)} followers</span>`
          : ""
      }</dd>`,
  )}</dl>
</section>`;
}

const OUTCOMES = {
  matched: ["Matched", "ok"],
  not_found: ["No match", ""],
  transient: ["Failed, will retry", "warn"],
  permanent: ["Failed", "bad"],
} as const;

export function providersPanel(d: CustomerDetail): SafeHtml {
  if (d.providers.length === 0) return html``;
  return html`<section class="panel" aria-labelledby="providers-title">
  <h2 id="providers-title">Data sources</h2>
  <div class="table-wrap"><table class="stack">
    <thead><tr><th scope="col">Source</th><th scope="col">Outcome</th><th scope="col">Checked</th></tr></thead>
    <tbody>${d.providers.map((p) => {
      const [label, cls] = OUTCOMES[p.outcome] ?? [p.outcome, ""];
      return html`<tr><td class="primary-cell">${p.provider}</td>
      <td data-label="Outcome"><span class="badge ${cls}">${label}</span>${p.http_status ? html` <span class="muted small">HTTP ${p.http_status}</span>` : ""}${p.error ? html`<div class="small muted wrap-anywhere">${p.error}</div>` : ""}</td>
      <td data-label="Checked">${timeTag(p.fetched_at)}${p.raw_cleared_at ? html`<div class="small muted">Raw answer removed ${timeTag(p.raw_cleared_at)} (retention)</div>` : ""}</td></tr>`;
    })}</tbody>
  </table></div>
</section>`;
}
