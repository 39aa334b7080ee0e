/**
 * A fake Shopify's order node (shopify-orders.ts) as the REST Admin API order resource that
 * order webhooks deliver (https://shopify.dev/docs/apps/build/webhooks/delivery-structure: the
 * body is "the full REST resource payload for the topic"; field names and shapes from the
 * orders/cancelled sample payload in https://shopify.dev/docs/api/webhooks/2026-10). Only the
 * fields Velvet reads, and the neighbours that show the shape, are written. As Shopify does,
 * dates carry the shop's UTC offset (a shop in New York: -05:00) instead of GraphQL's UTC,
 * `financial_status` is lower case, money is a decimal string in the shop's currency, and a
 * missing e-mail or phone is null.
 */
import type { ShopifyOrderNode } from "./shopify-orders.js";

/** The fake shop's offset from UTC, minutes (America/New_York in winter). */
const SHOP_OFFSET_MINUTES = -5 * 60;

/** An instant as Shopify's REST API writes it: the shop's local time with its offset. */
export function shopTime(iso: string | null | undefined): string | null {
  if (iso == null) return null;
  const local = new Date(Date.parse(iso) + SHOP_OFFSET_MINUTES * 60_000).toISOString();
  const sign = SHOP_OFFSET_MINUTES < 0 ? "-" : "+";
  const abs = Math.abs(SHOP_OFFSET_MINUTES);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return `${local.slice(0, 19)}${offset}`;
}

const numericId = (gid: string) => Number(gid.split("/").at(-1));

export function restOrder(node: ShopifyOrderNode) {
  const id = node.legacyResourceId;
  const customer = node.customer;
  const billing = node.billingAddress;
  const shipping = node.shippingAddress;
  const money = node.totalPriceSet.shopMoney;
  return {
    id: Number(id),
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: node.name,
    email: node.email,
    contact_email: node.email,
    phone: node.phone,
    test: node.test,
    created_at: shopTime(node.createdAt),
    updated_at: shopTime(node.updatedAt),
    processed_at: shopTime(node.createdAt),
    cancelled_at: shopTime(node.cancelledAt),
    cancel_reason: node.cancelledAt ? "customer" : null,
    financial_status: node.displayFinancialStatus?.toLowerCase() ?? null,
    fulfillment_status: null,
    total_price: money.amount,
    currency: money.currencyCode,
    presentment_currency: money.currencyCode,
    customer:
      customer === null
        ? null
        : {
            id: numericId(customer.id),
            admin_graphql_api_id: customer.id,
            email: customer.defaultEmailAddress?.emailAddress ?? null,
            first_name: customer.firstName,
            last_name: customer.lastName,
            phone: customer.defaultPhoneNumber?.phoneNumber ?? null,
            state: "disabled",
            verified_email: true,
          },
    billing_address:
      billing === null
        ? null
        : {
            first_name: billing.firstName,
            last_name: billing.lastName,
            name: [billing.firstName, billing.lastName].filter(Boolean).join(" "),
            phone: billing.phone,
            address1: "123 Main Street",
            city: billing.city,
            province_code: billing.provinceCode,
            zip: billing.zip,
            country_code: billing.countryCodeV2,
          },
    shipping_address:
      shipping === null
        ? null
        : {
            address1: "123 Main Street",
            city: shipping.city,
            province_code: shipping.provinceCode,
            zip: shipping.zip,
            country_code: shipping.countryCodeV2,
          },
    line_items: [],
    refunds: [],
  };
}
