/**
 * Precision month by month on Settings → Alerts, below the 90-day figure: a dot for each
 * month's share of right verdicts and a line for its 95 % interval (long when few verdicts say
 * little), nothing for a month without verdicts. Inline SVG drawn on the server like the other
 * charts, with a text summary that gives every month's figures.
 */
import { plural } from "../../../lib/plural.js";
import type { MonthPrecision } from "../../verdicts/precision-history.js";
import { formatMonth } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";

const WIDTH = 720;
const HEIGHT = 180;
const PAD = { top: 14, right: 8, bottom: 32, left: 72 };
const TICKS = [0, 25, 50, 75, 100];

const pct = (x: number) => `${Math.round(x * 100)} %`;

function monthText(m: MonthPrecision): string {
  if (m.precision === null || m.interval === null) return `${formatMonth(m.month)}: no verdicts`;
  return `${formatMonth(m.month)}: ${pct(m.precision)}, ${m.right} right of ${m.judged} judged (95 % interval ${Math.round(m.interval.low * 100)}–${pct(m.interval.high)})`;
}

export function precisionHistoryChart(months: MonthPrecision[], threshold: number): SafeHtml {
  const judged = months.reduce((s, m) => s + m.judged, 0);
  if (judged === 0) return html``;
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / months.length;
  const y = (share: number) => PAD.top + plotH - share * plotH;
  // Numbers only below this line: the markup is assembled from values we computed ourselves.
  const grid = TICKS.map(
    (t) =>
      html`<line class="axis" x1="${PAD.left}" x2="${WIDTH - PAD.right}" y1="${y(t / 100).toFixed(1)}" y2="${y(t / 100).toFixed(1)}"></line><text x="${PAD.left - 6}" y="${(y(t / 100) + 4).toFixed(1)}" text-anchor="end">${t} %</text>`,
  );
  const points = months.map((m, i) => {
    const cx = (PAD.left + i * slot + slot / 2).toFixed(1);
    const label = html`<text x="${cx}" y="${HEIGHT - 8}" text-anchor="middle">${formatMonth(m.month).slice(0, 3)}</text>`;
    if (m.precision === null || m.interval === null)
      return html`<g><title>${monthText(m)}</title>${label}</g>`;
    return html`<g><title>${monthText(m)}</title><line class="interval" x1="${cx}" x2="${cx}" y1="${y(m.interval.low).toFixed(1)}" y2="${y(m.interval.high).toFixed(1)}"></line><circle class="point" cx="${cx}" cy="${y(m.precision).toFixed(1)}" r="7"></circle>${label}</g>`;
  });
  const summary = `Precision at ${threshold} by the month the VIPs were scored: ${months.map(monthText).join("; ")}.`;
  return html`<figure class="chart-figure">
<div class="chart-scroll"><svg class="chart" viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${summary}">
${grid}${points}
</svg></div>
<figcaption class="legend"><span><i class="primary dot"></i>Right verdicts of ${plural(judged, "verdict")} on VIPs above ${threshold}</span><span><i class="whisker"></i>95 % interval</span><span>Months in UTC</span></figcaption>
</figure>`;
}
