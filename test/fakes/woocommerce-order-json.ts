/**
 * Orders as the fake WooCommerce holds and serves them: the REST API v3 order JSON (`billing` and
 * `shipping`, each always present with "" for what is missing, as in
 * https://woocommerce.github.io/woocommerce-rest-api-docs/#order-properties; `date_created_gmt`,
 * `date_modified_gmt` without a zone, `total` as a string) and every status WooCommerce has.
 */

export interface WooOrderJson {
  id: number;
  number: string;
  status: string;
  currency: string;
  total: string;
  date_created_gmt: string;
  date_modified_gmt: string;
  billing: {
    first_name: string;
    last_name: string;
    email: string;
    phone: string;
    city: string;
    state: string;
    postcode: string;
    country: string;
  };
  shipping: {
    first_name: string;
    last_name: string;
    company: string;
    address_1: string;
    address_2: string;
    city: string;
    state: string;
    postcode: string;
    country: string;
    phone: string;
  };
}

export const WOO_STATUSES = [
  "pending",
  "processing",
  "on-hold",
  "completed",
  "cancelled",
  "refunded",
  "failed",
  "trash",
  "checkout-draft",
] as const;

let sequence = 5000;

/** WooCommerce's GMT dates: `2024-03-05T14:02:11`, no zone, no milliseconds. */
function gmt(at: Date): string {
  return at.toISOString().replace(/\.\d{3}Z$/, "");
}

export function wooOrder(
  email: string,
  at: Date,
  extra: { first?: string; last?: string; total?: string; status?: string; currency?: string } = {},
): WooOrderJson {
  const id = ++sequence;
  return {
    id,
    number: String(id),
    status: extra.status ?? "processing",
    currency: extra.currency ?? "USD",
    total: extra.total ?? "1250.00",
    date_created_gmt: gmt(at),
    date_modified_gmt: gmt(at),
    billing: {
      first_name: extra.first ?? "Grace",
      last_name: extra.last ?? "Hopper",
      email,
      phone: "",
      city: "Atherton",
      state: "CA",
      postcode: "94027",
      country: "US",
    },
    shipping: {
      first_name: extra.first ?? "Grace",
      last_name: extra.last ?? "Hopper",
      company: "",
      address_1: "1 Lindenwood Dr",
      address_2: "",
      city: "Atherton",
      state: "CA",
      postcode: "94027",
      country: "US",
      phone: "",
    },
  };
}

export function touchWooOrder(order: WooOrderJson, at = new Date()): void {
  order.date_modified_gmt = gmt(at);
}

/**
 * The merchant (or a payment gateway) changes the order's status: WooCommerce saves the order,
 * and a save that changes `status` writes the modified date anew (`post_modified_gmt =
 * current_time('mysql', 1)` in WC_Order_Data_Store_CPT's update(), plugins/woocommerce/includes/
 * data-stores/abstract-wc-order-data-store-cpt.php), so the order is listed again by
 * `modified_after`.
 */
export function setWooOrderStatus(order: WooOrderJson, status: string, at = new Date()): void {
  order.status = status;
  touchWooOrder(order, at);
}
