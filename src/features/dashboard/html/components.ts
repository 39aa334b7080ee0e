/** Small pieces shared by several pages. */
import type { AlertStatus, EnrichmentStatus } from "../../../db/schema.js";
import { plural } from "../../../lib/plural.js";
import { html, type SafeHtml } from "./html.js";

export interface Notice {
  kind: "success" | "error" | "info";
  text: string;
}

export function notice(n: Notice | null | undefined): SafeHtml {
  if (!n) return html``;
  // Errors interrupt (role=alert); confirmations are announced politely.
  const role = n.kind === "error" ? "alert" : "status";
  return html`<div class="notice ${n.kind}" role="${role}"><p>${n.text}</p></div>`;
}

const ENRICHMENT_LABELS: Record<EnrichmentStatus, { label: string; cls: string }> = {
  pending: { label: "Pending", cls: "warn" },
  enriched: { label: "Enriched", cls: "ok" },
  failed: { label: "Failed", cls: "bad" },
};

export function enrichmentBadge(status: EnrichmentStatus): SafeHtml {
  const s = ENRICHMENT_LABELS[status];
  return html`<span class="badge ${s.cls}">${s.label}</span>`;
}

const ALERT_LABELS: Record<AlertStatus, { label: string; cls: string }> = {
  pending: { label: "Sending", cls: "warn" },
  waiting: { label: "Waiting", cls: "warn" },
  delivered: { label: "Delivered", cls: "ok" },
  failed: { label: "Failed", cls: "bad" },
};

export function alertBadge(status: AlertStatus): SafeHtml {
  const s = ALERT_LABELS[status];
  return html`<span class="badge ${s.cls}">${s.label}</span>`;
}

export function vipBadge(vip: boolean): SafeHtml {
  return vip ? html`<span class="badge vip">VIP</span>` : html``;
}

/** Marks generated sample data wherever a customer is named. */
export function sampleBadge(sample: boolean): SafeHtml {
  return sample ? html`<span class="badge">Sample</span>` : html``;
}

export function pageHead(title: string, intro?: SafeHtml | string, aside?: SafeHtml): SafeHtml {
  return html`<div class="page-head">
  <div><h1>${title}</h1>${intro ? html`<p class="muted">${intro}</p>` : ""}</div>
  ${aside ?? ""}
</div>`;
}

export interface PagerProps {
  page: number;
  pageSize: number;
  total: number;
  /** Builds the link for another page number, keeping the current filters. */
  href: (page: number) => string;
  /** Singular ("alert"): the pager says "1 alert", "1–50 of 120 alerts". */
  noun: string;
}

export function pager({ page, pageSize, total, href, noun }: PagerProps): SafeHtml {
  if (total === 0) return html``;
  const first = (page - 1) * pageSize + 1;
  const last = Math.min(page * pageSize, total);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return html`<nav class="pager" aria-label="Pages">
  <span class="muted">${first.toLocaleString("en-US")}–${last.toLocaleString("en-US")} of ${plural(total, noun)}</span>
  <span class="actions">
    ${page > 1 ? html`<a class="button secondary small" href="${href(page - 1)}" rel="prev">Previous</a>` : ""}
    <span class="muted small">Page ${page} of ${pages}</span>
    ${page < pages ? html`<a class="button secondary small" href="${href(page + 1)}" rel="next">Next</a>` : ""}
  </span>
</nav>`;
}

/** Builds `path?query` from the given parameters, leaving out empty ones. */
export function withQuery(
  path: string,
  params: Record<string, string | number | null | undefined>,
): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== null && v !== undefined && v !== "") q.set(k, String(v));
  }
  const s = q.toString();
  return s === "" ? path : `${path}?${s}`;
}
