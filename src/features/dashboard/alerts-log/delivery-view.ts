/** How one alert's delivery reads, on the Alerts log and on a customer's page. */
import type { Selectable } from "kysely";
import type { AlertAttemptsTable, AlertsTable } from "../../../db/schema.js";
import { CHANNEL_LABELS } from "../../alerts/channels/channel-registry.js";
import { alertBadge } from "../html/components.js";
import { formatDateTime } from "../html/format.js";
import { html, type SafeHtml } from "../html/html.js";

export type AlertWithAttempts = Selectable<AlertsTable> & {
  attemptLog: Selectable<AlertAttemptsTable>[];
};

const OUTCOME_TEXT = {
  delivered: "delivered",
  retry: "failed, retried",
  failed: "failed",
} as const;

function attemptLine(t: Selectable<AlertAttemptsTable>): SafeHtml {
  return html`<li>${formatDateTime(t.attempted_at)}: ${OUTCOME_TEXT[t.outcome] ?? t.outcome}${
    t.status_code !== null ? ` (HTTP ${t.status_code})` : ""
  }${t.error ? html` — <span class="wrap-anywhere">${t.error}</span>` : ""} <span class="muted">${t.duration_ms} ms</span></li>`;
}

/** Status, the outcome in words, and every attempt (behind a disclosure when there are several). */
export function deliveryDetails(a: AlertWithAttempts): SafeHtml {
  const summary =
    a.status === "delivered"
      ? html`${a.delivered_at === null ? "" : `after ${formatDuration(a.delivered_at - a.created_at)}`}`
      : a.status === "failed"
        ? html`<span class="wrap-anywhere">${a.last_error ?? "Delivery failed"}</span>`
        : a.status === "waiting"
          ? html`<span class="wrap-anywhere">${a.last_error ?? "Waiting for e-mail to be set up"}</span>`
          : a.last_error
            ? html`Retrying after: <span class="wrap-anywhere">${a.last_error}</span>`
            : html`Queued`;
  const attempts = a.attemptLog;
  return html`${alertBadge(a.status)} <span class="small">${summary}</span>${
    attempts.length > 0
      ? html`<details class="small"><summary>${attempts.length} ${attempts.length === 1 ? "attempt" : "attempts"}</summary><ol class="attempts">${attempts.map(attemptLine)}</ol></details>`
      : ""
  }`;
}

export function channelCell(a: Selectable<AlertsTable>): SafeHtml {
  return html`${CHANNEL_LABELS[a.channel] ?? a.channel}<div class="muted small wrap-anywhere">${a.target}</div>`;
}

/** 2500 → "2.5 s", 95_000 → "2 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}
