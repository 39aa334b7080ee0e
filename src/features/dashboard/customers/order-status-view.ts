/**
 * An order's platform status as the customer's page shows it (store-sync/order-status.ts keeps
 * the platform's own word: Shopify's financial status or cancellation, WooCommerce's order
 * status). An order that is not a purchase is marked so, because the customer's score and
 * counts leave it out; an order whose source gave no status (the API, a file import) shows none.
 */
import type { Order } from "../../../db/schema.js";
import { html, type SafeHtml } from "../html/html.js";

/** Words whose plain capitalisation would read wrong. */
const LABELS: Record<string, string> = {
  trash: "Deleted in the store",
  "on-hold": "On hold",
  "checkout-draft": "Checkout draft",
};

export function orderStatusLabel(status: string): string {
  const known = LABELS[status];
  if (known !== undefined) return known;
  const words = status.replace(/[_-]+/g, " ").trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function orderStatusCell(order: Pick<Order, "status" | "counts">): SafeHtml {
  if (order.status === null) return html`<span class="muted">Not given</span>`;
  const label = orderStatusLabel(order.status);
  return order.counts === 1
    ? html`${label}`
    : html`<span class="badge bad">${label}</span> <span class="muted small">not counted as a purchase</span>`;
}
