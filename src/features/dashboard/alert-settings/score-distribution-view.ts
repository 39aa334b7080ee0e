/**
 * The threshold chooser on Settings → Alerts: a histogram of this store's enriched customers by
 * score with the threshold marked, and how many would have been VIPs at the current threshold
 * and at others. Inline SVG drawn on the server, with a text summary, like the Overview chart.
 */
import { plural } from "../../../lib/plural.js";
import { formatCount, formatPercent } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import type { ScoreDistribution } from "./score-distribution.js";

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 28, left: 56 };
const CANDIDATES = [30, 40, 50, 60, 70, 80, 90];
/** The share of customers the "top 5 %" suggestion aims at. */
const SUGGESTED_SHARE = 0.05;

function histogram(dist: ScoreDistribution, threshold: number): SafeHtml {
  const max = Math.max(1, ...dist.bands);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (score: number) => PAD.left + (score / 100) * plotW;
  const y = (n: number) => PAD.top + plotH - (n / max) * plotH;
  const bars = dist.bands.map((n, i) => {
    const from = i * 10;
    const to = i === 9 ? 100 : from + 9;
    // A band wholly above the threshold is VIPs: drawn in the accent colour.
    const cls = from > threshold ? "bar primary" : "bar";
    const w = (plotW / 10) * 0.84;
    return html`<g><title>Score ${from}–${to}: ${plural(n, "customer")}</title><rect class="${cls}" x="${(x(from) + (plotW / 10 - w) / 2).toFixed(1)}" y="${y(n).toFixed(1)}" width="${w.toFixed(1)}" height="${(PAD.top + plotH - y(n)).toFixed(1)}"></rect></g>`;
  });
  const labels = [0, 20, 40, 60, 80, 100].map(
    (s) =>
      html`<text x="${x(s).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="${s === 0 ? "start" : s === 100 ? "end" : "middle"}">${s}</text>`,
  );
  const tx = x(threshold + 0.5).toFixed(1);
  const marker = html`<line class="threshold" x1="${tx}" x2="${tx}" y1="${PAD.top - 4}" y2="${PAD.top + plotH}"></line><text class="threshold-label" x="${tx}" y="${PAD.top + 8}" text-anchor="${threshold > 80 ? "end" : "start"}" dx="${threshold > 80 ? -4 : 4}">threshold ${threshold}</text>`;
  const yTicks = html`<text x="${PAD.left - 6}" y="${(y(max) + 4).toFixed(1)}" text-anchor="end">${max}</text><text x="${PAD.left - 6}" y="${(y(0) + 4).toFixed(1)}" text-anchor="end">0</text><line class="axis" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}"></line>`;
  const summary = `Scores of ${plural(dist.total, "enriched customer")} in bands of ten: ${dist.bands
    .map((n, i) => `${i * 10}–${i === 9 ? 100 : i * 10 + 9}: ${n}`)
    .join(", ")}. Threshold ${threshold}.`;
  return html`<figure class="chart-figure">
<div class="chart-scroll"><svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${summary}">
${yTicks}${bars}${labels}${marker}
</svg></div>
<figcaption class="legend"><span><i></i>Customers by score</span><span><i class="primary"></i>VIPs at the current threshold</span></figcaption>
</figure>`;
}

export function scoreDistributionPanel(dist: ScoreDistribution, threshold: number): SafeHtml {
  if (dist.total === 0) {
    return html`<section class="panel" aria-labelledby="distribution-title" id="score-distribution">
  <h2 id="distribution-title">Choosing a threshold</h2>
  <p class="muted">Once your first customers are enriched, this shows how their scores are spread and how many would be VIPs at each threshold.</p>
</section>`;
  }
  const suggested = dist.thresholdForShare(SUGGESTED_SHARE);
  const thresholds = [
    ...new Set([...CANDIDATES, threshold, ...(suggested === null ? [] : [suggested])]),
  ]
    .filter((t) => t >= 0 && t <= 100)
    .sort((a, b) => a - b);
  const rows = thresholds.map((t) => {
    const vips = dist.vipsAbove(t);
    const marks = [t === threshold ? "current" : "", t === suggested ? suggestion(dist, t) : ""]
      .filter(Boolean)
      .join(", ");
    return html`<tr${t === threshold ? html` class="current"` : ""}>
    <td class="primary-cell">Above ${t}${marks ? html` <span class="muted small">(${marks})</span>` : ""}</td>
    <td data-label="VIPs" class="num">${formatCount(vips)} of ${formatCount(dist.total)}</td>
    <td data-label="Share" class="num">${formatPercent(vips, dist.total)}</td>
  </tr>`;
  });
  const now = dist.vipsAbove(threshold);
  return html`<section class="panel" aria-labelledby="distribution-title" id="score-distribution">
  <h2 id="distribution-title">Choosing a threshold</h2>
  <p>At your threshold of ${threshold}, <strong>${formatCount(now)} of ${plural(dist.total, "enriched customer")}</strong> ${now === 1 ? "is a VIP" : "are VIPs"} (${formatPercent(now, dist.total)}).</p>
  ${histogram(dist, threshold)}
  <div class="table-wrap"><table class="stack compact">
  <caption class="visually-hidden">VIPs at each threshold</caption>
  <thead><tr><th scope="col">Threshold</th><th scope="col" class="num">VIPs</th><th scope="col" class="num">Share</th></tr></thead>
  <tbody>${rows}</tbody>
  </table></div>
  <p class="muted small">Counted on the scores customers have now; changing the threshold applies to customers enriched from then on.</p>
</section>`;
}

/** How the suggested threshold is labelled: the top 5 %, or, in a small store, its top few. */
function suggestion(dist: ScoreDistribution, t: number): string {
  const caught = dist.vipsAbove(t);
  return caught <= dist.total * SUGGESTED_SHARE
    ? "about the top 5 %"
    : `your top ${plural(caught, "customer")}`;
}
