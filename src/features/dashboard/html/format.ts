/**
 * Display formats. Times are shown in UTC (the server cannot know the viewer's zone without
 * client script) inside <time datetime> so assistive tech and copy-paste get the exact instant.
 */
import { formatMoney as formatLibMoney } from "../../../lib/money.js";
import { html, type SafeHtml } from "./html.js";

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

export function formatDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
}

export function formatDateTime(ms: number): string {
  const d = new Date(ms);
  const hh = String(d.getUTCHours()).padStart(2, "0");
  const mm = String(d.getUTCMinutes()).padStart(2, "0");
  return `${formatDate(ms)}, ${hh}:${mm} UTC`;
}

export function timeTag(ms: number | null, withTime = true, empty = "—"): SafeHtml {
  if (ms === null) return html`<span class="muted">${empty}</span>`;
  const text = withTime ? formatDateTime(ms) : formatDate(ms);
  return html`<time datetime="${new Date(ms).toISOString()}">${text}</time>`;
}

/** "2025-03" → "March 2025". */
export function formatMonth(month: string): string {
  const [year, m] = month.split("-");
  const long = new Date(Date.UTC(Number(year), Number(m) - 1, 1)).toLocaleString("en-US", {
    month: "long",
    timeZone: "UTC",
  });
  return `${long} ${year}`;
}

export function formatCount(n: number): string {
  return n.toLocaleString("en-US");
}

/** The one money format (lib/money.ts), with "—" for no amount: "1250.5", "USD" → "$1,250.50". */
export function formatMoney(amount: string | null, currency = "USD"): string {
  return amount === null ? "—" : formatLibMoney(amount, currency);
}

export function formatPercent(part: number, whole: number): string {
  if (whole === 0) return "—";
  const pct = (part / whole) * 100;
  return `${pct >= 10 || pct === 0 ? Math.round(pct) : pct.toFixed(1)}%`;
}

/** UTC day index (days since the epoch) → "12 Mar". */
export function formatDay(day: number): string {
  const d = new Date(day * 86_400_000);
  return `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]}`;
}
