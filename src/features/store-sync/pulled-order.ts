/**
 * The last step of every platform's order mapping (polled or pushed, Shopify or WooCommerce):
 * an order whose customer data the intake refuses, or whose creation time is not a date, is a
 * skip counted as "incomplete customer data"; anything else is an order to take, with its status.
 */
import type { ParseResult } from "../orders/order-request.js";
import type { OrderStatus } from "./order-status.js";
import type { PulledOrder } from "./store-platform.js";

export function pulledOrder(
  parsed: ParseResult,
  order: {
    externalId: string;
    updatedAt: number;
    createdAt: number;
    /** The platform's name of the creation field, for the skip's detail. */
    createdField: string;
  },
  status: OrderStatus,
  shopifyCustomerId?: string | null,
): PulledOrder {
  const { externalId, updatedAt, createdAt } = order;
  const reason = "incomplete customer data";
  if (!parsed.ok) return { kind: "skip", externalId, updatedAt, reason, detail: parsed.message };
  if (Number.isNaN(createdAt)) {
    const detail = `${order.createdField} is not a date`;
    return { kind: "skip", externalId, updatedAt, reason, detail };
  }
  return {
    kind: "order",
    externalId,
    submission: parsed.value,
    createdAt,
    updatedAt,
    ...(shopifyCustomerId === undefined ? {} : { shopifyCustomerId }),
    ...status,
  };
}
