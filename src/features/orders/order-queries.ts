/**
 * The statements of the order transaction that run on every submission, prepared once per
 * engine (see db/prepared-query.ts): order intake is the hot path, and building and compiling
 * each query anew cost more CPU than running it.
 */
import { sql } from "kysely";
import { type Executor, preparedQuery } from "../../db/prepared-query.js";
import type { CustomersTable, OrdersTable, UsageChargesTable } from "../../db/schema.js";
import { ENRICH_CUSTOMER_TASK } from "../enrichment/enqueue-enrichment.js";

/**
 * A new customer's columns; `now` fills updated_at, `created_at` is now too except for an
 * imported order history (the date of the customer's order); the status is "pending".
 */
type CustomerValues = Omit<
  CustomersTable,
  "enrichment_status" | "updated_at" | "shopify_customer_id" | "sample"
> & {
  now: number;
};

const CUSTOMER_VALUES = [
  "id",
  "store_id",
  "email",
  "email_normalized",
  "first_name",
  "last_name",
  "phone",
  "address_city",
  "address_state",
  "address_zipcode",
  "address_country",
  "created_at",
  "now",
] as const;

function customerInsert(db: Executor, v: CustomerValues) {
  return db
    .insertInto("customers")
    .values({
      id: v.id,
      store_id: v.store_id,
      email: v.email,
      email_normalized: v.email_normalized,
      first_name: v.first_name,
      last_name: v.last_name,
      phone: v.phone,
      address_city: v.address_city,
      address_state: v.address_state,
      address_zipcode: v.address_zipcode,
      address_country: v.address_country,
      enrichment_status: "pending",
      created_at: v.created_at,
      updated_at: v.now,
    })
    .onConflict((oc) => oc.columns(["store_id", "email_normalized"]).doNothing());
}

export const insertCustomer = preparedQuery(CUSTOMER_VALUES, (db, v: CustomerValues) =>
  customerInsert(db, v).returning("id"),
);

/**
 * The same without RETURNING, for SQLite's synchronous path (submit-order-sqlite.ts): the id is
 * the one given, and the rows changed (0 or 1) say whether it was inserted.
 */
export const insertCustomerIfNew = preparedQuery(CUSTOMER_VALUES, customerInsert);

/**
 * The customer, and while their enrichment is pending its job's priority (a live order moves a
 * queued backfill enrichment to the live queue): one index probe in the same statement, made
 * only for a pending customer.
 */
export const findCustomerByEmail = preparedQuery(
  ["store_id", "email_normalized"],
  (db, v: { store_id: string; email_normalized: string }) =>
    db
      .selectFrom("customers")
      .leftJoin("jobs", (join) =>
        join
          .on("customers.enrichment_status", "=", sql.lit("pending"))
          .on(sql`jobs.job_key`, "=", sql`${sql.lit(`${ENRICH_CUSTOMER_TASK}:`)} || customers.id`),
      )
      .select(["customers.id", "customers.enrichment_status", "jobs.priority as job_priority"])
      .where("customers.store_id", "=", v.store_id)
      .where("customers.email_normalized", "=", v.email_normalized),
);

export const insertCharge = preparedQuery(
  ["id", "account_id", "store_id", "customer_id", "unit_price_usd", "created_at"],
  (db, v: UsageChargesTable) =>
    db
      .insertInto("usage_charges")
      .values(v)
      .onConflict((oc) => oc.column("customer_id").doNothing()),
);

type OrderValues = Pick<OrdersTable, (typeof ORDER_VALUES)[number]>;

const ORDER_VALUES = [
  "id",
  "store_id",
  "customer_id",
  "external_order_id",
  "order_number",
  "total",
  "currency",
  "created_at",
] as const;

/** An order without a platform id: nothing to de-duplicate on. */
export const insertOrder = preparedQuery(ORDER_VALUES, (db, v: OrderValues) =>
  db.insertInto("orders").values(v),
);

function orderInsertOnce(db: Executor, v: OrderValues) {
  return db
    .insertInto("orders")
    .values(v)
    .onConflict((oc) => oc.columns(["store_id", "external_order_id"]).doNothing());
}

export const insertOrderOnce = preparedQuery(ORDER_VALUES, (db, v: OrderValues) =>
  orderInsertOnce(db, v).returning("id"),
);

/** The same without RETURNING (SQLite's synchronous path: 0 rows changed is a stored order id). */
export const insertOrderIfNew = preparedQuery(ORDER_VALUES, orderInsertOnce);

export const findOrder = preparedQuery(
  ["store_id", "external_order_id"],
  (db, v: { store_id: string; external_order_id: string }) =>
    db
      .selectFrom("orders")
      .select(["id", "customer_id"])
      .where("store_id", "=", v.store_id)
      .where("external_order_id", "=", v.external_order_id),
);

/** A queued backfill enrichment joins the live queue (submit-order.ts, promoteEnrichment). */
export const promoteJob = preparedQuery(
  ["job_key", "payload", "live"],
  (db, v: { job_key: string; payload: string; live: number }) =>
    db
      .updateTable("jobs")
      // Out of the backfill's turn order, into the untagged walk (jobs/fair-tag.ts): due now.
      .set({ priority: v.live, payload: v.payload, fair_tag: null })
      .where("job_key", "=", v.job_key),
);
