/**
 * The orders side of the fake Shopify Admin API (shopify-admin.ts): order nodes as the Admin
 * GraphQL API returns them, the `orders` connection's paging and `updated_at` filter, and the
 * answer an app without protected customer data access gets (the data nulled, WITH
 * `ACCESS_DENIED` errors). As GraphQL does, a node carries only the fields the query selects
 * (`selectFields`), so an address the query does not ask for never arrives.
 */
export interface ShopifyOrderNode {
  legacyResourceId: string;
  name: string;
  test: boolean;
  /**
   * `Order.cancelledAt` (DateTime, null unless cancelled) and `Order.displayFinancialStatus`
   * (OrderDisplayFinancialStatus: AUTHORIZED, EXPIRED, PAID, PARTIALLY_PAID, PARTIALLY_REFUNDED,
   * PENDING, REFUNDED, VOIDED; nullable): https://shopify.dev/docs/api/admin-graphql/latest/objects/Order,
   * https://shopify.dev/docs/api/admin-graphql/latest/enums/OrderDisplayFinancialStatus.
   */
  cancelledAt: string | null;
  displayFinancialStatus: ShopifyFinancialStatus | null;
  email: string | null;
  phone: string | null;
  createdAt: string;
  updatedAt: string;
  totalPriceSet: { shopMoney: { amount: string; currencyCode: string } };
  customer: {
    id: string;
    firstName: string | null;
    lastName: string | null;
    defaultEmailAddress: { emailAddress: string } | null;
    defaultPhoneNumber: { phoneNumber: string } | null;
  } | null;
  billingAddress: {
    firstName: string | null;
    lastName: string | null;
    phone: string | null;
    city: string | null;
    provinceCode: string | null;
    zip: string | null;
    countryCodeV2: string | null;
  } | null;
  /** Shopify's `Order.shippingAddress` (a MailingAddress); null for an order shipped nowhere. */
  shippingAddress: {
    city: string | null;
    provinceCode: string | null;
    zip: string | null;
    countryCodeV2: string | null;
  } | null;
}

export type ShopifyFinancialStatus =
  | "AUTHORIZED"
  | "EXPIRED"
  | "PAID"
  | "PARTIALLY_PAID"
  | "PARTIALLY_REFUNDED"
  | "PENDING"
  | "REFUNDED"
  | "VOIDED";

let sequence = 1000;

/** An order node as the Admin API returns it; `at` dates both createdAt and updatedAt. */
export function shopifyOrder(
  email: string | null,
  at: Date,
  extra: Partial<ShopifyOrderNode> & {
    first?: string;
    last?: string;
    total?: string;
    currency?: string;
  } = {},
): ShopifyOrderNode {
  const id = String(++sequence);
  const { first = "Grace", last = "Hopper", total = "1250.00", currency = "USD", ...rest } = extra;
  return {
    legacyResourceId: id,
    name: `#${id}`,
    test: false,
    cancelledAt: null,
    displayFinancialStatus: "PAID",
    email,
    phone: null,
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    totalPriceSet: { shopMoney: { amount: total, currencyCode: currency } },
    customer: {
      id: `gid://shopify/Customer/${7000 + sequence}`,
      firstName: first,
      lastName: last,
      defaultEmailAddress: email === null ? null : { emailAddress: email },
      defaultPhoneNumber: null,
    },
    billingAddress: {
      firstName: first,
      lastName: last,
      phone: null,
      city: "Atherton",
      provinceCode: "CA",
      zip: "94027",
      countryCodeV2: "US",
    },
    shippingAddress: { city: "Atherton", provinceCode: "CA", zip: "94027", countryCodeV2: "US" },
    ...rest,
  };
}

/**
 * The merchant cancels the order, or its payment changes (a refund, a capture): Shopify records
 * it and moves `updatedAt` ("The date and time when the order was last modified", Order object,
 * same page), so an `updated_at:>=` search finds the order again.
 */
export function changeShopifyOrder(
  order: ShopifyOrderNode,
  change: { cancelled?: boolean; financialStatus?: ShopifyFinancialStatus },
  at = new Date(),
): void {
  if (change.cancelled) order.cancelledAt = at.toISOString();
  if (change.financialStatus !== undefined) order.displayFinancialStatus = change.financialStatus;
  order.updatedAt = at.toISOString();
}

/** An app without protected customer data access: the data, nulled, WITH ACCESS_DENIED errors. */
export function withheld(page: ReturnType<typeof ordersPage>, cost: unknown) {
  const errors: unknown[] = [];
  const edges = page.edges.map((edge, i) => {
    const at = (field: string) => ["orders", "edges", i, "node", field];
    errors.push(
      {
        message:
          "This app is not approved to access the Customer object. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.",
        path: at("customer"),
        extensions: { code: "ACCESS_DENIED" },
      },
      {
        message:
          "This app is not approved to use the email field. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.",
        path: at("email"),
        extensions: { code: "ACCESS_DENIED" },
      },
    );
    return {
      ...edge,
      node: {
        ...edge.node,
        email: null,
        phone: null,
        customer: null,
        billingAddress: null,
        shippingAddress: null,
      },
    };
  });
  return { data: { orders: { ...page, edges } }, errors, extensions: { cost } };
}

/** The search syntax's time comparisons on `updated_at` and `created_at` (>, >=, <, <=). */
export function matchesSearch(o: ShopifyOrderNode, search: unknown): boolean {
  const text = typeof search === "string" ? search : "";
  for (const m of text.matchAll(/\b(updated_at|created_at):([<>]=?)'?([^'\s]+)'?/g)) {
    const t = Date.parse(m[1] === "updated_at" ? o.updatedAt : o.createdAt);
    const bound = Date.parse(m[3] as string);
    const ok =
      m[2] === ">="
        ? t >= bound
        : m[2] === ">"
          ? t > bound
          : m[2] === "<="
            ? t <= bound
            : t < bound;
    if (!ok) return false;
  }
  return true;
}

/**
 * `ordersCount(query, limit)`: the orders the search matches, counted up to `limit` (default
 * 10,000; null: no limit). Above it Shopify stops and says AT_LEAST with the limit as the count.
 */
export function ordersCount(all: ShopifyOrderNode[], search: unknown, limit: number | null) {
  const count = all.filter((o) => matchesSearch(o, search)).length;
  return limit !== null && count > limit
    ? { count: limit, precision: "AT_LEAST" as const }
    : { count, precision: "EXACT" as const };
}

/** The node's fields the query names (top level; what a field holds comes whole). */
export function selectFields(node: ShopifyOrderNode, query: string): Partial<ShopifyOrderNode> {
  return Object.fromEntries(
    Object.entries(node).filter(([field]) => new RegExp(`\\b${field}\\b`).test(query)),
  ) as Partial<ShopifyOrderNode>;
}

export function ordersPage(
  all: ShopifyOrderNode[],
  first: number,
  after: unknown,
  search: unknown,
  query = "",
) {
  const key = (o: ShopifyOrderNode) =>
    [Date.parse(o.updatedAt), Number(o.legacyResourceId)] as const;
  const sorted = [...all]
    .filter((o) => matchesSearch(o, search))
    .sort((a, b) => key(a)[0] - key(b)[0] || key(a)[1] - key(b)[1]);
  let start = 0;
  if (typeof after === "string") {
    const c = JSON.parse(Buffer.from(after, "base64").toString("utf8")) as {
      last_id: number;
      last_value: number;
    };
    start = sorted.findIndex((o) => {
      const [t, id] = key(o);
      return t > c.last_value || (t === c.last_value && id > c.last_id);
    });
    if (start < 0) start = sorted.length;
  }
  const slice = sorted.slice(start, start + first);
  const cursorOf = (o: ShopifyOrderNode) => {
    const [t, id] = key(o);
    return Buffer.from(JSON.stringify({ last_id: id, last_value: t })).toString("base64");
  };
  const edges = slice.map((node) => ({ cursor: cursorOf(node), node: selectFields(node, query) }));
  const lastEdge = edges.at(-1);
  return {
    edges,
    pageInfo: {
      hasNextPage: start + first < sorted.length,
      endCursor: lastEdge ? lastEdge.cursor : null,
    },
  };
}
