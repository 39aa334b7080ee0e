/**
 * A daily bar chart as inline SVG, drawn on the server: no chart library, no client script.
 * Each bar carries a <title> (a tooltip and an accessible name); the whole chart has a text
 * summary for screen readers. An optional highlight (e.g. VIPs among new customers) is drawn
 * over each bar in the accent colour.
 */

import { plural } from "../../../lib/plural.js";
import { formatDay } from "./format.js";
import { html, type SafeHtml } from "./html.js";

export interface DayPoint {
  /** UTC day index: days since the epoch. */
  day: number;
  value: number;
  highlight?: number;
}

export interface BarChartProps {
  points: DayPoint[];
  label: string;
  /** Singular nouns ("enrichment", "VIP"): counts read "1 enrichment", "3 VIPs". */
  noun: string;
  highlightNoun?: string;
}

const WIDTH = 720;
const HEIGHT = 200;
const PAD = { top: 14, right: 8, bottom: 32, left: 40 };

/** Rounds the axis maximum up to a readable number (1, 2, 5 × 10^n). */
function niceMax(max: number): number {
  if (max <= 4) return Math.max(max, 1);
  const pow = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 5, 10]) if (step * pow >= max) return step * pow;
  return 10 * pow;
}

export function barChart({ points, label, noun, highlightNoun }: BarChartProps): SafeHtml {
  const max = niceMax(Math.max(0, ...points.map((p) => p.value)));
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(points.length, 1);
  const barW = Math.max(1, slot * 0.72);
  const y = (v: number) => PAD.top + plotH - (v / max) * plotH;
  const total = points.reduce((s, p) => s + p.value, 0);
  const highlighted = points.reduce((s, p) => s + (p.highlight ?? 0), 0);

  // Numbers only below this line: the markup is assembled from values we computed ourselves.
  const bars = points.map((p, i) => {
    const x = (PAD.left + i * slot + (slot - barW) / 2).toFixed(1);
    const h = ((p.value / max) * plotH).toFixed(1);
    const hh = (((p.highlight ?? 0) / max) * plotH).toFixed(1);
    const tip = `${formatDay(p.day)}: ${plural(p.value, noun)}${highlightNoun ? `, ${plural(p.highlight ?? 0, highlightNoun)}` : ""}`;
    return html`<g><title>${tip}</title><rect class="bar" x="${x}" y="${y(p.value).toFixed(1)}" width="${barW.toFixed(1)}" height="${h}"></rect>${
      highlightNoun && (p.highlight ?? 0) > 0
        ? html`<rect class="bar primary" x="${x}" y="${y(p.highlight ?? 0).toFixed(1)}" width="${barW.toFixed(1)}" height="${hh}"></rect>`
        : ""
    }</g>`;
  });
  const ticks = [0, max / 2, max].filter((v, i, a) => Number.isInteger(v) && a.indexOf(v) === i);
  const grid = ticks.map(
    (v) =>
      html`<line class="axis" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line><text x="${PAD.left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`,
  );
  const labelIdx = [...new Set([0, Math.floor((points.length - 1) / 2), points.length - 1])];
  const xLabels = points.length
    ? labelIdx.map((i) => {
        const p = points[i] as DayPoint;
        const x = PAD.left + i * slot + slot / 2;
        const anchor = i === 0 ? "start" : i === points.length - 1 ? "end" : "middle";
        const tx = i === 0 ? PAD.left : i === points.length - 1 ? WIDTH - PAD.right : x;
        return html`<text x="${tx.toFixed(1)}" y="${HEIGHT - 8}" text-anchor="${anchor}">${formatDay(p.day)}</text>`;
      })
    : [];
  const summary = `${label}: ${plural(total, noun)}${highlightNoun ? ` (${plural(highlighted, highlightNoun)})` : ""} over ${plural(points.length, "day")}${
    points.length
      ? `, ${formatDay(points[0]?.day ?? 0)} to ${formatDay(points[points.length - 1]?.day ?? 0)}`
      : ""
  }.`;
  return html`<figure class="chart-figure">
<div class="chart-scroll"><svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${summary}">
${grid}${bars}${xLabels}
</svg></div>
<figcaption class="legend"><span><i></i>${capitalise(`${noun}s`)}</span>${
    highlightNoun
      ? html`<span><i class="primary"></i>${capitalise(`${highlightNoun}s`)}</span>`
      : ""
  }<span>Days in UTC</span></figcaption>
</figure>`;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
