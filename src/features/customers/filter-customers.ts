/**
 * The account's customers narrowed by the filters the Customers page, its CSV download and
 * `velvet customer list` share: name or e-mail, VIP, enrichment status and tier. Always scoped
 * by account through the stores join; selects nothing, so each caller picks its columns.
 */
import { type Kysely, sql } from "kysely";
import type { Database, EnrichmentStatus } from "../../db/schema.js";
import { type Tier, tierRange } from "./tiers.js";

export interface CustomerFilter {
  /** Part of the name or e-mail ("" or absent: anyone). */
  q?: string;
  vip?: boolean;
  status?: EnrichmentStatus | null;
  /** A tier's name: the customers whose score is in its range; a name the account lacks: none. */
  tier?: string | null;
}

/** Escapes LIKE wildcards so a search for "50%" finds "50%", not everything. */
function likePattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export function filterCustomers(
  db: Kysely<Database>,
  accountId: string,
  f: CustomerFilter,
  tiers: readonly Tier[],
) {
  let query = db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
    .where("stores.account_id", "=", accountId);
  const q = f.q ?? "";
  if (q !== "") {
    const pattern = likePattern(q);
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`customers.email_normalized like ${pattern} escape '\\'`,
        sql<boolean>`lower(customers.first_name || ' ' || customers.last_name) like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (f.vip) query = query.where("enrichments.vip", "=", 1);
  if (f.status) query = query.where("customers.enrichment_status", "=", f.status);
  if (f.tier) {
    const range = tierRange(f.tier, tiers);
    if (range === null) query = query.where(sql<boolean>`1 = 0`);
    else {
      query = query.where("enrichments.score", ">=", range.min);
      if (range.below !== null) query = query.where("enrichments.score", "<", range.below);
    }
  }
  return query;
}
