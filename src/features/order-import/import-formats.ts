/**
 * The order files Velvet reads, recognised by their header row:
 * - **Shopify** (Orders → Export, CSV for Excel or plain CSV): one row per line item; an
 *   order's rows follow each other and share `Name` (`#1001`); its first row carries the
 *   customer and the totals, the others leave them empty.
 * - **WooCommerce**: the CSV of WooCommerce's own *Customer / Order / Coupon Export* extension
 *   (default format, `order_id … billing_email … order_total`), one row per order or, in its
 *   "one row per item" formats, one row per line item sharing `order_id`. WooCommerce core has
 *   no order export that carries the customer's e-mail (Analytics → Orders → Download lists
 *   names only), so that is the export a WooCommerce merchant has.
 * - **Plain**: `email,first_name,last_name,phone,city,state,zipcode,country,order_id,
 *   order_number,total,currency,ordered_at`, one row per order, for any other source.
 * Column names are matched case-insensitively, in any order; extra columns are ignored.
 *
 * Shopify's export writes ZIP codes and phone numbers with a leading apostrophe (`'02134`,
 * `'+1 617…`) so that spreadsheets keep the leading zeros; it is removed before validation.
 * The address is the billing address, or the shipping address when the billing one has no ZIP
 * (orders/order-address.ts), taken whole.
 */
import { customerAddress } from "../orders/order-address.js";

export type FormatName = "shopify" | "woocommerce" | "plain";

/** One order's fields as read from the file, before validation (null: empty or absent). */
export interface RawOrder {
  email: string | null;
  firstName: string | null;
  lastName: string | null;
  phone: string | null;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
  orderId: string | null;
  orderNumber: string | null;
  total: string | null;
  currency: string | null;
  orderedAt: string | null;
}

export interface ImportFormat {
  name: FormatName;
  /** Rows with the same key, one after the other, are one order (line items). */
  groupKey: (row: Row) => string;
  /** The order's fields, from the first row of its group. */
  read: (row: Row) => RawOrder;
}

/** A data row, read by column name. */
export type Row = (column: string) => string | null;

const SHOPIFY: ImportFormat = {
  name: "shopify",
  groupKey: (row) => row("name") ?? row("id") ?? "",
  read: (row) => {
    const [firstName, lastName] = splitName(row("billing name") ?? row("shipping name"));
    const address = (kind: "billing" | "shipping") => ({
      city: row(`${kind} city`),
      state: row(`${kind} province`),
      zipcode: unquote(row(`${kind} zip`)),
      country: row(`${kind} country`),
    });
    const chosen = customerAddress(address("billing"), address("shipping"));
    return {
      email: row("email"),
      firstName,
      lastName,
      phone: unquote(row("billing phone") ?? row("phone") ?? row("shipping phone")),
      city: chosen?.city ?? null,
      state: chosen?.state ?? null,
      zipcode: chosen?.zipcode ?? null,
      country: chosen?.country ?? null,
      // `Id` (the numeric order id) is what the API and live sync receive as the order id;
      // exports from before Shopify added the column fall back to the name.
      orderId: row("id") ?? row("name"),
      orderNumber: row("name"),
      total: row("total"),
      currency: row("currency"),
      orderedAt: row("created at"),
    };
  },
};

const WOOCOMMERCE: ImportFormat = {
  name: "woocommerce",
  groupKey: (row) => row("order_id") ?? "",
  read: (row) => {
    const address = (kind: "billing" | "shipping") => ({
      city: row(`${kind}_city`),
      state: row(`${kind}_state_code`) ?? row(`${kind}_state`),
      zipcode: row(`${kind}_postcode`),
      country: row(`${kind}_country`),
    });
    const chosen = customerAddress(address("billing"), address("shipping"));
    return {
      email: row("billing_email"),
      firstName: row("billing_first_name"),
      lastName: row("billing_last_name"),
      phone: row("billing_phone"),
      city: chosen?.city ?? null,
      state: chosen?.state ?? null,
      zipcode: chosen?.zipcode ?? null,
      country: chosen?.country ?? null,
      orderId: row("order_id"),
      orderNumber: row("order_number_formatted") ?? row("order_number") ?? row("order_id"),
      total: row("order_total"),
      currency: row("order_currency"),
      orderedAt: row("order_date"),
    };
  },
};

const PLAIN: ImportFormat = {
  name: "plain",
  // One row per order: a row is its own group (line numbers are unique).
  groupKey: () => "",
  read: (row) => ({
    email: row("email"),
    firstName: row("first_name"),
    lastName: row("last_name"),
    phone: row("phone"),
    city: row("city"),
    state: row("state"),
    zipcode: row("zipcode"),
    country: row("country"),
    orderId: row("order_id"),
    orderNumber: row("order_number"),
    total: row("total"),
    currency: row("currency"),
    orderedAt: row("ordered_at"),
  }),
};

const SIGNATURES: { format: ImportFormat; columns: string[] }[] = [
  { format: SHOPIFY, columns: ["name", "email", "billing name", "total", "created at"] },
  { format: WOOCOMMERCE, columns: ["order_id", "billing_email", "order_total", "order_date"] },
  { format: PLAIN, columns: ["email", "first_name", "last_name", "ordered_at"] },
];

/** The format whose required columns the header has, or null. */
export function detectFormat(header: string[]): ImportFormat | null {
  const names = new Set(header.map(normalizeColumn));
  return SIGNATURES.find((s) => s.columns.every((c) => names.has(c)))?.format ?? null;
}

export const REQUIRED_COLUMNS = SIGNATURES.map(
  (s) => `${s.format.name}: ${s.columns.join(", ")}`,
).join("; ");

export function normalizeColumn(name: string): string {
  return name
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();
}

/** Shopify's spreadsheet guard: `'02134` → `02134`. */
function unquote(value: string | null): string | null {
  if (value === null || !value.startsWith("'")) return value;
  const rest = value.slice(1).trim();
  return rest === "" ? null : rest;
}

/** "Ada King Lovelace" → ["Ada King", "Lovelace"]; one word → [word, null]. */
function splitName(full: string | null): [string | null, string | null] {
  if (full === null) return [null, null];
  const parts = full.trim().split(/\s+/);
  if (parts.length < 2) return [parts[0] ?? null, null];
  return [parts.slice(0, -1).join(" "), parts.at(-1) ?? null];
}
