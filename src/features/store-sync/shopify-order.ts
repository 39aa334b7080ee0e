/**
 * The orders query Velvet sends Shopify's Admin GraphQL API, and one order node mapped to an
 * order submission. The customer's e-mail and phone are read from `defaultEmailAddress` and
 * `defaultPhoneNumber` (`Customer.email`/`phone` are deprecated since 2025-04). Test orders
 * (`test: true`, placed with Shopify's test gateway) are skipped. The customer's GID is kept so
 * that a feature writing back to Shopify knows the customer. The address is the billing
 * address, or the shipping address when the billing one has no ZIP (orders/order-address.ts);
 * both are `MailingAddress` fields of Shopify's `Order`
 * (https://shopify.dev/docs/api/admin-graphql/latest/objects/Order).
 */
import { z } from "zod";
import { customerAddress } from "../orders/order-address.js";
import { parseOrderRequest } from "../orders/order-request.js";
import { shopifyOrderStatus } from "./order-status.js";
import { pulledOrder } from "./pulled-order.js";
import type { PulledOrder } from "./store-platform.js";

export const ORDERS_QUERY = `query VelvetOrders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    edges {
      cursor
      node {
        legacyResourceId
        name
        test
        cancelledAt
        displayFinancialStatus
        email
        phone
        createdAt
        updatedAt
        totalPriceSet { shopMoney { amount currencyCode } }
        customer {
          id
          firstName
          lastName
          defaultEmailAddress { emailAddress }
          defaultPhoneNumber { phoneNumber }
        }
        billingAddress { firstName lastName phone city provinceCode zip countryCodeV2 }
        shippingAddress { city provinceCode zip countryCodeV2 }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;

/**
 * The orders a pass would read, counted by Shopify. `limit` is the documented default (10,000)
 * said outright: above it Shopify stops counting and answers AT_LEAST. Uncapped counts
 * (`limit: null`) are slower for Shopify on large shops, and a dry run needs no more than "at
 * least 10,000" to say the backfill is large.
 */
export const ORDERS_COUNT_QUERY = `query VelvetOrdersCount($query: String, $limit: Int) {
  ordersCount(query: $query, limit: $limit) { count precision }
}`;
export const SHOPIFY_COUNT_LIMIT = 10_000;

export const SCOPES_QUERY = `query VelvetScopes {
  currentAppInstallation { accessScopes { handle } }
}`;

const nullableString = z.string().nullish();
export const OrderNode = z.object({
  legacyResourceId: z.union([z.string(), z.number()]).transform(String),
  name: nullableString,
  test: z.boolean().nullish(),
  cancelledAt: nullableString,
  displayFinancialStatus: nullableString,
  email: nullableString,
  phone: nullableString,
  createdAt: z.string(),
  updatedAt: z.string(),
  totalPriceSet: z
    .object({ shopMoney: z.object({ amount: z.string(), currencyCode: z.string() }) })
    .nullish(),
  customer: z
    .object({
      id: nullableString,
      firstName: nullableString,
      lastName: nullableString,
      defaultEmailAddress: z.object({ emailAddress: nullableString }).nullish(),
      defaultPhoneNumber: z.object({ phoneNumber: nullableString }).nullish(),
    })
    .nullish(),
  billingAddress: z
    .object({
      firstName: nullableString,
      lastName: nullableString,
      phone: nullableString,
      city: nullableString,
      provinceCode: nullableString,
      zip: nullableString,
      countryCodeV2: nullableString,
    })
    .nullish(),
  shippingAddress: z
    .object({
      city: nullableString,
      provinceCode: nullableString,
      zip: nullableString,
      countryCodeV2: nullableString,
    })
    .nullish(),
});
export type OrderNode = z.infer<typeof OrderNode>;

export function mapShopifyOrder(node: OrderNode): PulledOrder {
  const externalId = node.legacyResourceId;
  const updatedAt = Date.parse(node.updatedAt);
  if (node.test === true) {
    return { kind: "skip", externalId, updatedAt, reason: "test order", detail: "test: true" };
  }
  const billing = node.billingAddress;
  const customer = node.customer;
  const asParts = (a: OrderNode["shippingAddress"]) =>
    a == null
      ? null
      : { city: a.city, state: a.provinceCode, zipcode: a.zip, country: a.countryCodeV2 };
  const parsed = parseOrderRequest({
    email: node.email ?? customer?.defaultEmailAddress?.emailAddress,
    firstName: billing?.firstName ?? customer?.firstName,
    lastName: billing?.lastName ?? customer?.lastName,
    phone: billing?.phone ?? node.phone ?? customer?.defaultPhoneNumber?.phoneNumber,
    address: customerAddress(asParts(billing), asParts(node.shippingAddress)),
    order: {
      id: externalId,
      number: node.name,
      total: node.totalPriceSet?.shopMoney.amount,
      currency: node.totalPriceSet?.shopMoney.currencyCode,
    },
  });
  const createdAt = Date.parse(node.createdAt);
  return pulledOrder(
    parsed,
    { externalId, updatedAt, createdAt, createdField: "createdAt" },
    shopifyOrderStatus(node.cancelledAt, node.displayFinancialStatus),
    customer?.id ?? null,
  );
}
