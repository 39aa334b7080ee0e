/**
 * Customers for the list tests (tiers, `velvet customer list`, the Customers page's CSV),
 * written straight into a real database: a customer with their orders (counting or not, in any
 * currency) and, when scored, an enrichment with that score and VIP decision.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";
import { newId } from "../../src/lib/ids.js";

export interface ListedCustomer {
  email: string;
  firstName?: string;
  lastName?: string;
  /** null: not enriched yet (pending, no enrichment row). */
  score?: number | null;
  vip?: boolean;
  orders?: Array<{ total: string | null; currency: string; counts?: boolean }>;
}

/** Seeds the customers in order (ids increase with `at`); returns their ids. */
export async function seedListedCustomers(
  db: Kysely<Database>,
  storeId: string,
  customers: ListedCustomer[],
  at = Date.now(),
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, c] of customers.entries()) {
    const now = at + i * 10;
    const id = newId(now);
    ids.push(id);
    const score = c.score ?? null;
    await db
      .insertInto("customers")
      .values({
        id,
        store_id: storeId,
        email: c.email,
        email_normalized: c.email.toLowerCase(),
        first_name: c.firstName ?? "Jane",
        last_name: c.lastName ?? "Doe",
        phone: null,
        address_city: null,
        address_state: null,
        address_zipcode: null,
        address_country: null,
        enrichment_status: score === null ? "pending" : "enriched",
        created_at: now,
        updated_at: now,
      })
      .execute();
    for (const [j, o] of (c.orders ?? []).entries()) {
      await db
        .insertInto("orders")
        .values({
          id: newId(now + j),
          store_id: storeId,
          customer_id: id,
          external_order_id: `${id}-${j}`,
          order_number: null,
          total: o.total,
          currency: o.currency,
          created_at: now + j,
          counts: o.counts === false ? 0 : 1,
        })
        .execute();
    }
    if (score !== null) {
      await db
        .insertInto("enrichments")
        .values({
          customer_id: id,
          score,
          vip: c.vip ? 1 : 0,
          threshold: 70,
          signals: "[]",
          profile: "{}",
          attempts: 1,
          last_error: null,
          started_at: now,
          enriched_at: now,
          // As enrichment saves it: a VIP since the moment they were found one.
          vip_since: c.vip ? now : null,
          updated_at: now,
        })
        .execute();
    }
  }
  return ids;
}
