/**
 * One customer as the merchant sees it: identity, enrichment (status, score, VIP decision and
 * every signal that made it, lifetime spend and largest order among them; since when a VIP, and
 * the last change of that decision on later orders with its reason), their tier (tiers.ts), the
 * normalised profile, and their orders. Scoped to an account:
 * another account's customer is simply not found.
 */
import type { Kysely } from "kysely";
import type { Database, EnrichmentStatus } from "../../db/schema.js";
import { normalizeEmail } from "../orders/email-address.js";
import type { Address } from "../orders/order-request.js";
import { accountTiers } from "./account-tiers.js";
import { customerDetailsView, orderView } from "./customer-views.js";
import { tierOf } from "./tiers.js";

export interface CustomerReport {
  customerId: string;
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: Address;
  createdAt: string;
  /** The account's tier the score reaches (tiers.ts); null when none or not scored yet. */
  tier: string | null;
  enrichment: {
    status: EnrichmentStatus;
    score: number | null;
    vip: boolean | null;
    threshold: number | null;
    signals: unknown[];
    profile: Record<string, unknown>;
    attempts: number;
    enrichedAt: string | null;
    lastError: string | null;
    /** When the customer became the VIP they are now; null while not a VIP. */
    vipSince: string | null;
    /** The last change of the VIP decision by a re-judge of later orders, and why. */
    vipChangedAt: string | null;
    vipChangeReason: string | null;
    /** The last re-judge that stored a score (null: the score is the enrichment's). */
    rejudgedAt: string | null;
  };
  orders: Array<{
    orderId: string;
    externalId: string | null;
    number: string | null;
    total: string | null;
    currency: string;
    createdAt: string;
  }>;
}

export type CustomerLookup = { customerId: string } | { email: string };

const iso = (ms: number) => new Date(ms).toISOString();

export async function getCustomerReport(
  db: Kysely<Database>,
  accountId: string,
  lookup: CustomerLookup,
): Promise<CustomerReport | null> {
  let query = db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
    .selectAll("customers")
    .select([
      "enrichments.score",
      "enrichments.vip",
      "enrichments.threshold",
      "enrichments.signals",
      "enrichments.profile",
      "enrichments.attempts",
      "enrichments.enriched_at",
      "enrichments.last_error",
      "enrichments.vip_since",
      "enrichments.vip_changed_at",
      "enrichments.vip_change_reason",
      "enrichments.rejudged_at",
    ])
    .where("stores.account_id", "=", accountId);
  query =
    "customerId" in lookup
      ? query.where("customers.id", "=", lookup.customerId)
      : query.where("customers.email_normalized", "=", normalizeEmail(lookup.email));
  // An address can be both a real customer's and a sample one's (the sample store is apart):
  // the real customer is the one meant.
  const c = await query
    .orderBy("customers.sample")
    .orderBy("customers.created_at")
    .executeTakeFirst();
  if (!c) return null;

  const orders = await db
    .selectFrom("orders")
    .select([
      "id",
      "external_order_id",
      "order_number",
      "total",
      "currency",
      "created_at",
      "status",
      "counts",
    ])
    .where("customer_id", "=", c.id)
    .orderBy("created_at", "desc")
    .execute();

  return {
    ...customerDetailsView(c),
    createdAt: iso(c.created_at),
    tier: tierOf(c.score, await accountTiers(db, accountId)),
    enrichment: {
      status: c.enrichment_status,
      score: c.score ?? null,
      vip: c.vip === null || c.vip === undefined ? null : c.vip === 1,
      threshold: c.threshold ?? null,
      signals: c.signals ? (JSON.parse(c.signals) as unknown[]) : [],
      profile: c.profile ? (JSON.parse(c.profile) as Record<string, unknown>) : {},
      attempts: c.attempts ?? 0,
      enrichedAt: c.enriched_at ? iso(c.enriched_at) : null,
      lastError: c.last_error ?? null,
      vipSince: c.vip_since ? iso(c.vip_since) : null,
      vipChangedAt: c.vip_changed_at ? iso(c.vip_changed_at) : null,
      vipChangeReason: c.vip_change_reason ?? null,
      rejudgedAt: c.rejudged_at ? iso(c.rejudged_at) : null,
    },
    orders: orders.map(orderView),
  };
}
