/**
 * The threshold chooser on Settings → Alerts: a histogram of this store's enriched customers by
 * score with the threshold marked, and how many would have been VIPs at the current threshold
 * and at others. Inline SVG drawn on the server, with a text summary, like the Overview chart.
 */
import { plural } from "../../../lib/plural.js";
import { niceScale } from "../html/chart-scale.js";
import { formatCount, formatPercent } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";
import type { ScoreDistribution } from "./score-distribution.js";

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 12, right: 8, bottom: 28, left: 48 };
const CANDIDATES = [30, 40, 50, 60, 70, 80, 90];
/** The share of customers the "top 5 %" suggestion aims at. */
const SUGGESTED_SHARE = 0.05;

/** Customers of band `i` (scores i*10 to i*10+9, the last 90–100) who are VIPs: above the threshold. */
function vipsInBand(dist: ScoreDistribution, i: number, threshold: number): number {
  const from = i * 10;
  const to = i === 9 ? 100 : from + 9;
  if (threshold >= to) return 0;
  return dist.vipsAbove(Math.max(threshold, from - 1)) - dist.vipsAbove(to);
}

function histogram(dist: ScoreDistribution, threshold: number): SafeHtml {
  const scale = niceScale(Math.max(...dist.bands));
  const longest = Math.max(...scale.ticks.map((v) => v.toLocaleString("en-US").length));
  // Room for the tick labels at the phone's larger chart font (as in bar-chart.ts).
  const padLeft = Math.max(PAD.left, Math.ceil(longest * 12.5 + 10));
  const plotW = WIDTH - padLeft - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (score: number) => padLeft + (score / 100) * plotW;
  const y = (n: number) => PAD.top + plotH - (n / scale.max) * plotH;
  const w = (plotW / 10) * 0.84;
  const bars = dist.bands.map((n, i) => {
    const from = i * 10;
    const to = i === 9 ? 100 : from + 9;
    // The VIPs of a band (scores above the threshold) in the accent colour, the rest below
    // them in the plain one: a band the threshold cuts shows both.
    const vips = vipsInBand(dist, i, threshold);
    const left = (x(from) + (plotW / 10 - w) / 2).toFixed(1);
    const rect = (cls: string, count: number, base: number) =>
      html`<rect class="${cls}" x="${left}" y="${y(base + count).toFixed(1)}" width="${w.toFixed(1)}" height="${(y(base) - y(base + count)).toFixed(1)}"></rect>`;
    const tip = `Score ${from}–${to}: ${plural(n, "customer")}${vips > 0 ? `, ${plural(vips, "VIP")}` : ""}`;
    return html`<g><title>${tip}</title>${n - vips > 0 ? rect("bar", n - vips, 0) : ""}${vips > 0 ? rect("bar primary", vips, n - vips) : ""}</g>`;
  });
  const labels = [0, 20, 40, 60, 80, 100].map(
    (s) =>
      html`<text x="${x(s).toFixed(1)}" y="${HEIGHT - 8}" text-anchor="${s === 0 ? "start" : s === 100 ? "end" : "middle"}">${s}</text>`,
  );
  const tx = x(threshold + 0.5).toFixed(1);
  const marker = html`<line class="threshold" x1="${tx}" x2="${tx}" y1="${PAD.top - 4}" y2="${PAD.top + plotH}"></line><text class="threshold-label" x="${tx}" y="${PAD.top + 8}" text-anchor="${threshold > 80 ? "end" : "start"}" dx="${threshold > 80 ? -4 : 4}">threshold ${threshold}</text>`;
  const yTicks = scale.ticks.map(
    (v) =>
      html`<line class="axis" x1="${padLeft}" x2="${WIDTH - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line><text x="${padLeft - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v.toLocaleString("en-US")}</text>`,
  );
  const summary = `Scores of ${plural(dist.total, "enriched customer")} in bands of ten: ${dist.bands
    .map((n, i) => `${i * 10}–${i === 9 ? 100 : i * 10 + 9}: ${n}`)
    .join(", ")}. Threshold ${threshold}: ${plural(dist.vipsAbove(threshold), "VIP")}.`;
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
