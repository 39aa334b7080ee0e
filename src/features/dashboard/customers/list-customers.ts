/**
 * The Customers list: one page of the account's customers with their enrichment, filtered by
 * name or e-mail, VIP and status, sorted by first-seen date or score. Always scoped by account
 * through the stores join; the store's (store_id, created_at) index serves the default order.
 */
import { type Kysely, sql } from "kysely";
import type { Database, EnrichmentStatus } from "../../../db/schema.js";
import type { CustomerListQuery } from "./customer-list-query.js";

export const CUSTOMERS_PAGE_SIZE = 50;

export interface CustomerListRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: EnrichmentStatus;
  score: number | null;
  vip: boolean;
  createdAt: number;
  /** Purchases: orders that count (not cancelled, refunded or voided). */
  orders: number;
  /** Generated sample data (Overview → Try it with sample orders). */
  sample: boolean;
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

function filtered(db: Kysely<Database>, accountId: string, q: CustomerListQuery) {
  let query = db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
    .where("stores.account_id", "=", accountId);
  if (q.q !== "") {
    const pattern = likePattern(q.q);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`customers.email_normalized like ${pattern} escape '\\'`,
        sql<boolean>`lower(customers.first_name || ' ' || customers.last_name) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (q.vip) query = query.where("enrichments.vip", "=", 1);
  if (q.status !== null) query = query.where("customers.enrichment_status", "=", q.status);
  return query;
}

export async function listCustomers(
  db: Kysely<Database>,
  accountId: string,
  q: CustomerListQuery,
): Promise<{ rows: CustomerListRow[]; total: number }> {
  const countRow = await filtered(db, accountId, q)
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  let pageQuery = filtered(db, accountId, q).select([
    "customers.id",
    "customers.first_name",
    "customers.last_name",
    "customers.email",
    "customers.enrichment_status",
    "customers.created_at",
    "customers.sample",
    "enrichments.score",
    "enrichments.vip",
  ]);
  pageQuery =
    q.sort === "score"
      ? pageQuery
          .orderBy(sql`coalesce(enrichments.score, -1)`, "desc")
          .orderBy("customers.created_at", "desc")
      : pageQuery.orderBy("customers.created_at", "desc");
  const rows = await pageQuery
    .orderBy("customers.id", "desc")
    .limit(CUSTOMERS_PAGE_SIZE)
    .offset((q.page - 1) * CUSTOMERS_PAGE_SIZE)
    .execute();

  const orderCounts = new Map<string, number>();
  if (rows.length > 0) {
    const counts = await db
      .selectFrom("orders")
      .select(["customer_id", (eb) => eb.fn.countAll<number>().as("n")])
      .where(
        "customer_id",
        "in",
        rows.map((r) => r.id),
      )
      // Purchases: a cancelled, refunded or voided order is on the customer's page, not here.
      .where("counts", "=", 1)
      .groupBy("customer_id")
      .execute();
    for (const c of counts) orderCounts.set(c.customer_id, Number(c.n));
  }
  return {
    total,
    rows: rows.map((r) => ({
      id: r.id,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      status: r.enrichment_status,
      score: r.score,
      vip: r.vip === 1,
      createdAt: r.created_at,
      orders: orderCounts.get(r.id) ?? 0,
      sample: r.sample === 1,
    })),
  };
}
