/**
 * Beside the threshold chooser on Settings → Alerts: how often the team's verdicts said the VIPs
 * of the last 90 days were right at the current threshold, with the 95 % Wilson interval, and
 * the threshold the verdicts suggest (verdicts/precision.ts), or what is missing for one.
 */
import { plural } from "../../../lib/plural.js";
import { PRECISION_WINDOW_DAYS, type Precision } from "../../verdicts/precision.js";
import type { MonthPrecision } from "../../verdicts/precision-history.js";
import { precisionLine, suggestionLine } from "../../verdicts/precision-text.js";
import { html, type SafeHtml } from "../html/html.js";
import { precisionHistoryChart } from "./precision-history-view.js";

export function precisionPanel(p: Precision, history: MonthPrecision[]): SafeHtml {
  return html`<section class="panel" aria-labelledby="precision-title" id="precision">
  <h2 id="precision-title">Precision from your verdicts</h2>
  <p data-testid="precision">${precisionLine(p)}</p>
  <p data-testid="suggested-threshold">${suggestionLine(p)}</p>
  ${
    history.some((m) => m.judged > 0)
      ? html`<h3 id="precision-history-title">Month by month, at ${p.threshold}</h3>
  ${precisionHistoryChart(history, p.threshold)}`
      : ""
  }
  <p class="muted small">Counted over VIPs scored in the last ${PRECISION_WINDOW_DAYS} days that your team marked “Right” or “Not a VIP” (on the customer page, in the alert log, or with the links in each alert): ${plural(p.verdictsInWindow, "verdict")} in all.</p>
</section>`;
}
