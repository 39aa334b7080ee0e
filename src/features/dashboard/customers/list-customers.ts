/**
 * The Customers list: one page of the account's customers with their enrichment and tier,
 * filtered by name or e-mail, VIP, status and tier (customers/filter-customers.ts), sorted by
 * first-seen date or score. The store's (store_id, created_at) index serves the default order.
 */
import { type Kysely, sql } from "kysely";
import type { Database, EnrichmentStatus } from "../../../db/schema.js";
import { filterCustomers } from "../../customers/filter-customers.js";
import { type Tier, tierOf } from "../../customers/tiers.js";
import type { CustomerListQuery } from "./customer-list-query.js";

export const CUSTOMERS_PAGE_SIZE = 50;

export interface CustomerListRow {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  status: EnrichmentStatus;
  score: number | null;
  /** The account's tier the score reaches; null when none. */
  tier: string | null;
  vip: boolean;
  createdAt: number;
  /** Purchases: orders that count (not cancelled, refunded or voided). */
  orders: number;
  /** Generated sample data (Overview → Try it with sample orders). */
  sample: boolean;
}

export async function listCustomers(
  db: Kysely<Database>,
  accountId: string,
  q: CustomerListQuery,
  tiers: readonly Tier[],
): Promise<{ rows: CustomerListRow[]; total: number }> {
  const filtered = () => filterCustomers(db, accountId, q, tiers);
  const countRow = await filtered()
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirst();
  const total = Number(countRow?.n ?? 0);
  let pageQuery = filtered().select([
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
      tier: tierOf(r.score, tiers),
      vip: r.vip === 1,
      createdAt: r.created_at,
      orders: orderCounts.get(r.id) ?? 0,
      sample: r.sample === 1,
    })),
  };
}
