/**
 * An order's status as its platform says it, and whether it counts as a purchase.
 *
 * Shopify: a cancelled order (`cancelledAt` / REST `cancelled_at` set) is `cancelled`; otherwise
 * its financial status, lower-cased (GraphQL `displayFinancialStatus`: PENDING, AUTHORIZED,
 * PARTIALLY_PAID, PAID, PARTIALLY_REFUNDED, REFUNDED, VOIDED, EXPIRED; REST `financial_status`
 * the same words in lower case: https://shopify.dev/docs/api/admin-graphql/latest/enums/OrderDisplayFinancialStatus).
 * WooCommerce: the order's `status` (pending, processing, on-hold, completed, cancelled,
 * refunded, failed, trash, checkout-draft:
 * https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties).
 *
 * What does not count: money that never changed hands or went back in full (cancelled,
 * refunded, voided, an authorization that expired) and an order in the bin. A partial refund
 * still counts: the customer kept most of what they bought.
 */

import type { SkipReason } from "./store-platform.js";

/** Statuses under which an order is not a purchase, on either platform. */
const NOT_COUNTED = new Set(["cancelled", "refunded", "voided", "expired", "trash"]);

export interface OrderStatus {
  /** The platform's word, lower case (`paid`, `cancelled`, `processing` …); null: not said. */
  status: string | null;
  /** false: cancelled, refunded, voided, expired or binned: not a purchase. */
  counts: boolean;
}

export function statusCounts(status: string | null): boolean {
  return status === null || !NOT_COUNTED.has(status);
}

/** Shopify's order, from GraphQL (`cancelledAt`, `displayFinancialStatus`) or REST fields. */
export function shopifyOrderStatus(
  cancelledAt: string | null | undefined,
  financialStatus: string | null | undefined,
): OrderStatus {
  const status = cancelledAt ? "cancelled" : financialStatus ? financialStatus.toLowerCase() : null;
  return { status, counts: statusCounts(status) };
}

export function wooOrderStatus(status: string | null | undefined): OrderStatus {
  const said = status ? status.toLowerCase() : null;
  return { status: said, counts: statusCounts(said) };
}

/**
 * Why an order that is not a purchase is skipped when Velvet does not hold it yet: nothing is
 * created, enriched or charged for it (store-sync/write-pulled-orders.ts).
 */
export function notPurchasedReason(status: string | null): SkipReason {
  if (status === "refunded") return "refunded";
  if (status === "voided" || status === "expired") return "voided";
  return "cancelled";
}
