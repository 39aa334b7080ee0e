/**
 * Column charts as inline SVG, drawn on the server: no chart library, no client script.
 * Each column carries a <title> (a tooltip and an accessible name); the whole chart has a text
 * summary for screen readers. An optional highlight (e.g. VIPs among new customers) is drawn
 * over each column in the accent colour. The value axis has nice ticks (chart-scale.ts) and the
 * time axis names every day, week or fortnight back from the newest column.
 */

import { plural } from "../../../lib/plural.js";
import { labelledColumns, niceScale } from "./chart-scale.js";
import { formatDay } from "./format.js";
import { html, type SafeHtml } from "./html.js";

export interface DayPoint {
  /** UTC day index: days since the epoch. */
  day: number;
  value: number;
  highlight?: number;
}

export interface Column {
  /** Under the column when it is labelled ("12 Mar", "Jul"). */
  label: string;
  /** The column's tooltip and accessible name ("12 Mar: 3 new customers, 1 VIP"). */
  tip: string;
  value: number;
  highlight?: number;
}

export interface ColumnChartProps {
  columns: Column[];
  /** The chart's text alternative: what it shows, with the totals. */
  summary: string;
  /** The legend's entries after the colour keys ("Days in UTC"). */
  legend: Array<{ text: string; key?: "bar" | "primary" }>;
  /** Whole-number ticks (counts); false for amounts. */
  integer?: boolean;
  formatTick?: (value: number) => string;
  /** Indices of the columns named on the time axis (default: all). */
  labelled?: number[];
  height?: number;
}

const WIDTH = 720;
const PAD = { top: 14, right: 8, bottom: 32 };
/** Wide enough for the tick labels at the phone's larger chart font (styles: 22px). */
const TICK_CHAR = 12.5;

export function columnChart(p: ColumnChartProps): SafeHtml {
  const height = p.height ?? 200;
  const scale = niceScale(Math.max(0, ...p.columns.map((c) => c.value)), { integer: p.integer });
  const tickText = p.formatTick ?? ((v: number) => v.toLocaleString("en-US"));
  const longest = Math.max(...scale.ticks.map((v) => tickText(v).length));
  const left = Math.max(40, Math.ceil(longest * TICK_CHAR + 10));
  const plotW = WIDTH - left - PAD.right;
  const plotH = height - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(p.columns.length, 1);
  const barW = Math.max(1, slot * 0.72);
  const y = (v: number) => PAD.top + plotH - (v / scale.max) * plotH;

  // Numbers only below this line: the markup is assembled from values we computed ourselves.
  const bars = p.columns.map((c, i) => {
    const x = (left + i * slot + (slot - barW) / 2).toFixed(1);
    const h = ((c.value / scale.max) * plotH).toFixed(1);
    const hi = c.highlight ?? 0;
    const hh = ((hi / scale.max) * plotH).toFixed(1);
    return html`<g><title>${c.tip}</title><rect class="bar" x="${x}" y="${y(c.value).toFixed(1)}" width="${barW.toFixed(1)}" height="${h}"></rect>${
      hi > 0
        ? html`<rect class="bar primary" x="${x}" y="${y(hi).toFixed(1)}" width="${barW.toFixed(1)}" height="${hh}"></rect>`
        : ""
    }</g>`;
  });
  const grid = scale.ticks.map(
    (v) =>
      html`<line class="axis" x1="${left}" x2="${WIDTH - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}"></line><text class="y-tick" x="${left - 6}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end">${tickText(v)}</text>`,
  );
  const labelled = p.labelled ?? p.columns.map((_, i) => i);
  const xLabels = labelled.map((i) => {
    const cx = left + i * slot + slot / 2;
    // The outermost labels keep inside the chart.
    const anchor =
      i === 0 && slot < 60 ? "start" : i === p.columns.length - 1 && slot < 60 ? "end" : "middle";
    const tx = anchor === "start" ? left : anchor === "end" ? WIDTH - PAD.right : cx;
    const tick = html`<line class="tick" x1="${cx.toFixed(1)}" x2="${cx.toFixed(1)}" y1="${PAD.top + plotH}" y2="${PAD.top + plotH + 4}"></line>`;
    return html`${tick}<text class="x-label" x="${tx.toFixed(1)}" y="${height - 8}" text-anchor="${anchor}">${p.columns[i]?.label ?? ""}</text>`;
  });
  return html`<figure class="chart-figure">
<div class="chart-scroll"><svg class="chart" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${p.summary}">
${grid}${bars}${xLabels}
</svg></div>
<figcaption class="legend">${p.legend.map((l) =>
    l.key
      ? html`<span><i${l.key === "primary" ? html` class="primary"` : ""}></i>${l.text}</span>`
      : html`<span>${l.text}</span>`,
  )}</figcaption>
</figure>`;
}

export interface BarChartProps {
  points: DayPoint[];
  label: string;
  /** Singular nouns ("enrichment", "VIP"): counts read "1 enrichment", "3 VIPs". */
  noun: string;
  highlightNoun?: string;
}

/** A daily chart: one column a day, labelled every day, week or fortnight. */
export function barChart({ points, label, noun, highlightNoun }: BarChartProps): SafeHtml {
  const total = points.reduce((s, p) => s + p.value, 0);
  const highlighted = points.reduce((s, p) => s + (p.highlight ?? 0), 0);
  const first = points[0];
  const last = points[points.length - 1];
  const summary = `${label}: ${plural(total, noun)}${highlightNoun ? ` (${plural(highlighted, highlightNoun)})` : ""} over ${plural(points.length, "day")}${
    first && last ? `, ${formatDay(first.day)} to ${formatDay(last.day)}` : ""
  }.`;
  return columnChart({
    columns: points.map((p) => ({
      label: formatDay(p.day),
      tip: `${formatDay(p.day)}: ${plural(p.value, noun)}${highlightNoun ? `, ${plural(p.highlight ?? 0, highlightNoun)}` : ""}`,
      value: p.value,
      highlight: highlightNoun ? (p.highlight ?? 0) : 0,
    })),
    summary,
    legend: [
      { text: capitalise(`${noun}s`), key: "bar" },
      ...(highlightNoun
        ? [{ text: capitalise(`${highlightNoun}s`), key: "primary" as const }]
        : []),
      { text: "Days in UTC" },
    ],
    labelled: labelledColumns(points.length, 7, [1, 2, 7, 14, 28]),
  });
}

export function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
