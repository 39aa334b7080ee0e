/**
 * The order Shopify's `orders/create`, `orders/updated` and `orders/cancelled` webhooks deliver,
 * mapped to the same PulledOrder as the polled GraphQL node (store-sync/shopify-order.ts), so an
 * order gives one submission whichever way it arrived. The body is the REST Admin API's order
 * resource (https://shopify.dev/docs/apps/build/webhooks/delivery-structure: "the full REST
 * resource payload for the topic"; the sample payloads at
 * https://shopify.dev/docs/api/webhooks/2026-10?reference=toml#list-topics-orders/create):
 * `id`, `admin_graphql_api_id`, `name`, `email`, `phone`, `test`, `created_at`, `updated_at`,
 * `cancelled_at`, `financial_status` (lower case), `total_price` and `currency` (the shop's
 * money, as GraphQL's `totalPriceSet.shopMoney`), `customer` {`admin_graphql_api_id`,
 * `first_name`, `last_name`, `email`, `phone`} and `billing_address` / `shipping_address`
 * {`first_name`, `last_name`, `phone`, `city`, `province_code`, `zip`, `country_code`}.
 *
 * Where the two shapes differ:
 * - dates carry the shop's offset (`2026-11-27T06:40:00-05:00`) where GraphQL says UTC: both
 *   are read as instants;
 * - the order's id is taken from `admin_graphql_api_id` (`gid://shopify/Order/<id>`, a string)
 *   before the numeric `id`, which JSON may round past 2^53; it is GraphQL's `legacyResourceId`;
 * - REST says a missing e-mail or phone as "" as well as null: both count as not given.
 * The rules are mapShopifyOrder's: test orders skipped, the address from orders/order-address.ts,
 * incomplete customer data skipped, the customer's GID kept, the status from shopifyOrderStatus.
 */
import { z } from "zod";
import { customerAddress } from "../orders/order-address.js";
import { parseOrderRequest } from "../orders/order-request.js";
import { shopifyOrderStatus } from "../store-sync/order-status.js";
import { pulledOrder } from "../store-sync/pulled-order.js";
import type { PulledOrder } from "../store-sync/store-platform.js";

const text = z.string().nullish();
const Address = z
  .object({
    first_name: text,
    last_name: text,
    phone: text,
    city: text,
    province_code: text,
    zip: text,
    country_code: text,
  })
  .nullish();

const RestOrder = z.object({
  id: z.union([z.number(), z.string()]),
  admin_graphql_api_id: text,
  name: text,
  email: text,
  phone: text,
  test: z.boolean().nullish(),
  created_at: z.string(),
  updated_at: z.string(),
  cancelled_at: text,
  financial_status: text,
  total_price: z.union([z.string(), z.number()]).nullish(),
  currency: text,
  customer: z
    .object({
      admin_graphql_api_id: text,
      first_name: text,
      last_name: text,
      email: text,
      phone: text,
    })
    .nullish(),
  billing_address: Address,
  shipping_address: Address,
});
type RestAddress = z.infer<typeof Address>;

/** null or "" (REST says both): not given. */
const given = (value: string | null | undefined): string | null =>
  value == null || value.trim() === "" ? null : value;

const ORDER_GID = /^gid:\/\/shopify\/Order\/(\d+)$/;

/** The webhook's order as a PulledOrder; null when the body is not an order. */
export function mapShopifyWebhookOrder(body: unknown): PulledOrder | null {
  const read = RestOrder.safeParse(body);
  if (!read.success) return null;
  const order = read.data;
  const fromGid = ORDER_GID.exec(order.admin_graphql_api_id ?? "")?.[1];
  const externalId = fromGid ?? String(order.id);
  const updatedAt = Date.parse(order.updated_at);
  if (Number.isNaN(updatedAt)) return null;
  if (order.test === true) {
    return { kind: "skip", externalId, updatedAt, reason: "test order", detail: "test: true" };
  }
  const billing = order.billing_address;
  const customer = order.customer;
  const asParts = (a: RestAddress) =>
    a == null
      ? null
      : { city: a.city, state: a.province_code, zipcode: a.zip, country: a.country_code };
  const parsed = parseOrderRequest({
    email: given(order.email) ?? given(customer?.email),
    firstName: billing?.first_name ?? customer?.first_name,
    lastName: billing?.last_name ?? customer?.last_name,
    phone: given(billing?.phone) ?? given(order.phone) ?? given(customer?.phone),
    address: customerAddress(asParts(billing), asParts(order.shipping_address)),
    order: {
      id: externalId,
      number: order.name,
      total: order.total_price == null ? undefined : String(order.total_price),
      currency: order.currency,
    },
  });
  return pulledOrder(
    parsed,
    { externalId, updatedAt, createdAt: Date.parse(order.created_at), createdField: "created_at" },
    shopifyOrderStatus(order.cancelled_at, order.financial_status),
    given(customer?.admin_graphql_api_id),
  );
}
