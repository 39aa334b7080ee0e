/** Overview: the store at a glance over 7, 30 or 90 days, or how to get started. */

import { plural } from "../../../lib/plural.js";
import { atLeast } from "../../team/roles.js";
import { curlExample, EXAMPLE_OUTCOME } from "../api-access/curl-example.js";
import { barChart } from "../html/bar-chart.js";
import { type Notice, notice, pageHead, vipBadge } from "../html/components.js";
import { formatCount, formatPercent, timeTag } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField, page } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { type Overview, PERIODS } from "./get-overview.js";

function periodSwitch(current: number): SafeHtml {
  return html`<nav class="period" aria-label="Period">${PERIODS.map(
    (p) =>
      html`<a href="/?period=${p}"${p === current ? html` aria-current="true"` : ""}>${p} days</a>`,
  )}</nav>`;
}

/** On an empty store: a generated history to look around with (admins and owners add it). */
function trySample(session: DashboardSession): SafeHtml {
  if (!atLeast(session.role, "admin")) return html``;
  return html`<section class="panel" aria-labelledby="sample-title">
  <h2 id="sample-title">No orders yet? Try it with sample orders</h2>
  <p>Velvet adds a generated store history: 60 customers at example addresses across US ZIP codes, with a spread of order values and repeat buyers. They are enriched and scored like real customers, so you see VIPs and why within a minute. Sample customers are marked as sample, never billed and never alerted, and one click removes them.</p>
  <form method="post" action="/sample-data">${csrfField(session)}<button type="submit">Try it with sample orders</button></form>
</section>`;
}

/** While sample data is there: say so, and offer to remove it. */
function sampleBanner(session: DashboardSession, sampleCustomers: number): SafeHtml {
  if (sampleCustomers === 0) return html``;
  const remove = atLeast(session.role, "admin")
    ? html`<form class="inline" method="post" action="/sample-data/remove" data-confirm="Remove the sample data? Its ${plural(sampleCustomers, "generated customer")} and their orders are erased; your real customers and orders stay.">${csrfField(session)}<button type="submit" class="secondary small">Remove sample data</button></form>`
    : html``;
  return html`<div class="notice info" role="status" id="sample-data"><p>This store shows sample data: ${plural(sampleCustomers, "generated customer")} at example addresses, not billed and never alerted. ${remove}</p></div>`;
}

function gettingStarted(o: Overview, publicBaseUrl: string): SafeHtml {
  return html`<section class="panel empty" aria-labelledby="start-title">
  <h2 id="start-title">Get started in three steps</h2>
  <p class="muted">Velvet learns about your customers from the orders your store sends it.</p>
  <ol class="steps">
    <li><strong>Get an API key.</strong> ${
      o.hasActiveKey
        ? html`You have an active key. Lost it? <a href="/settings/integrations">Generate a new one</a> under Settings → Integrations.`
        : html`<a href="/settings/integrations">Generate one</a> under Settings → Integrations → API Access.`
    }</li>
    <li><strong>Send your first order.</strong> From your platform, or from a terminal:
      <div class="code-block"><pre class="code" id="curl-example" tabindex="0" aria-label="Example request">${curlExample(publicBaseUrl, null)}</pre><button type="button" class="secondary small copy-button" data-copy="curl-example">Copy</button></div>
      <p class="muted small">${EXAMPLE_OUTCOME}</p></li>
    <li><strong>Meet your customers.</strong> Each one appears under <a href="/customers">Customers</a> and is scored within seconds; VIPs are <a href="/settings/alerts">alerted</a> to your team.</li>
  </ol>
</section>`;
}

function stat(label: string, value: string, hint: string | SafeHtml): SafeHtml {
  return html`<div class="stat"><div class="label">${label}</div><div class="value">${value}</div><div class="hint">${hint}</div></div>`;
}

export function overviewView(
  session: DashboardSession,
  o: Overview,
  publicBaseUrl: string,
  /** Brief notices for whoever runs the server (notices/operator-notice.ts). */
  serverNotices: SafeHtml,
  extra: { sampleCustomers: number; notice: Notice | null } = { sampleCustomers: 0, notice: null },
): SafeHtml {
  const body = !o.hasCustomers
    ? html`${trySample(session)}${gettingStarted(o, publicBaseUrl)}`
    : html`<div class="grid">
  ${stat("New customers", formatCount(o.customers), `${formatCount(o.pending)} pending · ${formatCount(o.failed)} failed`)}
  ${stat("VIPs", formatCount(o.vips), `Among new customers, score above ${session.vipThreshold}`)}
  ${stat("VIP rate", formatPercent(o.vips, o.enriched), `Of ${plural(o.enriched, "enriched new customer")}`)}
  ${stat("Orders", formatCount(o.orders), "Received in the period")}
  ${stat("Enrichments", formatCount(o.enrichmentsCompleted), "Completed in the period")}
</div>
<div class="two-col">
  <section class="panel" aria-labelledby="chart-title">
    <h2 id="chart-title">New customers per day</h2>
    ${barChart({ points: o.days, label: `New customers per day, last ${o.period} days`, noun: "new customer", highlightNoun: "VIP" })}
  </section>
  <section class="panel" aria-labelledby="vips-title">
    <div class="panel-head"><h2 id="vips-title">Latest VIPs</h2><a href="/customers?vip=1&amp;sort=score" class="small">All VIPs</a></div>
    ${
      o.latestVips.length === 0
        ? html`<p class="muted">No VIPs yet. Customers scoring above ${session.vipThreshold} show up here.</p>`
        : html`<div class="table-wrap"><table class="stack"><thead><tr><th scope="col">Customer</th><th scope="col" class="num">Score</th></tr></thead><tbody>${o.latestVips.map(
            (v) =>
              html`<tr><td class="primary-cell"><a href="/customers/${v.id}">${v.name}</a> ${vipBadge(true)}<div class="muted small">${timeTag(v.enrichedAt)}</div></td><td data-label="Score" class="num">${v.score}</td></tr>`,
          )}</tbody></table></div>`
    }
  </section>
</div>`;
  return page({
    title: "Overview",
    session,
    section: "overview",
    body: html`${pageHead("Overview", `${session.accountName}, last ${o.period} days (UTC).`, o.hasCustomers ? periodSwitch(o.period) : undefined)}
${notice(extra.notice)}
${sampleBanner(session, extra.sampleCustomers)}
${serverNotices}
${body}`,
  });
}
