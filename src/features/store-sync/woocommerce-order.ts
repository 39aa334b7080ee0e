/**
 * A WooCommerce order as Velvet takes it: the REST API v3 order JSON (what a pass of the orders
 * list reads and what an `order.created` / `order.updated` webhook delivers, both built by the
 * same controller) mapped to a PulledOrder.
 *
 * Only real orders: `checkout-draft` (a cart at checkout), `pending` (awaiting payment) and
 * `failed` orders are skipped and counted; when one is paid later its modification brings it
 * back, and it is taken then. The status is kept (order-status.ts): cancelled and refunded
 * orders do not count as purchases.
 *
 * Address: the order's `billing`, or its `shipping` when the billing postcode is empty (both
 * are in every order, https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties).
 */
import { z } from "zod";
import { customerAddress } from "../orders/order-address.js";
import { parseOrderRequest } from "../orders/order-request.js";
import { wooOrderStatus } from "./order-status.js";
import { pulledOrder } from "./pulled-order.js";
import type { PulledOrder, SkipReason } from "./store-platform.js";

/** Orders that are not (yet) a purchase: skipped, and taken once they change into one. */
const NOT_PLACED: Record<string, SkipReason> = {
  "checkout-draft": "checkout draft",
  pending: "awaiting payment",
  failed: "payment failed",
};

const text = z.string().nullish();
export const WooOrder = z.object({
  id: z.number(),
  number: text,
  status: text,
  currency: text,
  total: text,
  date_created_gmt: z.string(),
  date_modified_gmt: z.string(),
  billing: z
    .object({
      first_name: text,
      last_name: text,
      email: text,
      phone: text,
      city: text,
      state: text,
      postcode: text,
      country: text,
    })
    .nullish(),
  shipping: z.object({ city: text, state: text, postcode: text, country: text }).nullish(),
});
export type WooOrder = z.infer<typeof WooOrder>;

/** WooCommerce's GMT dates have no zone ("2024-03-05T14:02:11"): they are UTC. */
export function wooGmt(text: string): number {
  return Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
}

export function mapWooOrder(order: WooOrder): PulledOrder {
  const id = String(order.id);
  const updatedAt = wooGmt(order.date_modified_gmt);
  const notPlaced = NOT_PLACED[order.status ?? ""];
  if (notPlaced !== undefined) {
    return {
      kind: "skip",
      externalId: id,
      updatedAt,
      reason: notPlaced,
      detail: `status ${order.status}`,
    };
  }
  const b = order.billing;
  const parsed = parseOrderRequest({
    email: b?.email,
    firstName: b?.first_name,
    lastName: b?.last_name,
    phone: b?.phone,
    // The shipping address when the billing one has no postcode (orders/order-address.ts).
    address: customerAddress(addressOf(b), addressOf(order.shipping)),
    order: { id, number: order.number, total: order.total, currency: order.currency },
  });
  const createdAt = wooGmt(order.date_created_gmt);
  const at = { externalId: id, updatedAt, createdAt, createdField: "date_created_gmt" };
  return pulledOrder(parsed, at, wooOrderStatus(order.status));
}

function addressOf(
  a:
    | {
        city?: string | null;
        state?: string | null;
        postcode?: string | null;
        country?: string | null;
      }
    | null
    | undefined,
) {
  return a == null
    ? null
    : { city: a.city, state: a.state, zipcode: a.postcode, country: a.country };
}
