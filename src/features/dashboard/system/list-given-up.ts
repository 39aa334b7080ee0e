/**
 * What gave up for one account (Settings → System): enrichments whose customer is `failed`
 * and alerts that are `failed`, newest first, each with its job's key, which the retry button
 * revives. Scoped by the account like every dashboard query: customers through their store's
 * `account_id`, alerts by their own.
 */
import type { Kysely } from "kysely";
import type { AlertChannel, Database } from "../../../db/schema.js";

export const GIVEN_UP_LIMIT = 100;

export interface GivenUpEnrichment {
  customerId: string;
  name: string;
  email: string;
  lastError: string | null;
  failedAt: number;
}

export interface GivenUpAlert {
  alertId: string;
  customerId: string;
  name: string;
  channel: AlertChannel;
  target: string;
  attempts: number;
  lastError: string | null;
  createdAt: number;
}

export async function listGivenUpEnrichments(
  db: Kysely<Database>,
  accountId: string,
): Promise<GivenUpEnrichment[]> {
  const rows = await db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
    .select([
      "customers.id",
      "customers.first_name",
      "customers.last_name",
      "customers.email",
      "customers.updated_at",
      "enrichments.last_error",
    ])
    .where("stores.account_id", "=", accountId)
    .where("customers.enrichment_status", "=", "failed")
    .orderBy("customers.updated_at", "desc")
    .limit(GIVEN_UP_LIMIT)
    .execute();
  return rows.map((r) => ({
    customerId: r.id,
    name: `${r.first_name} ${r.last_name}`,
    email: r.email,
    lastError: r.last_error,
    failedAt: r.updated_at,
  }));
}

export async function listGivenUpAlerts(
  db: Kysely<Database>,
  accountId: string,
): Promise<GivenUpAlert[]> {
  const rows = await db
    .selectFrom("alerts")
    .innerJoin("customers", "customers.id", "alerts.customer_id")
    .select([
      "alerts.id",
      "alerts.customer_id",
      "customers.first_name",
      "customers.last_name",
      "alerts.channel",
      "alerts.target",
      "alerts.attempts",
      "alerts.last_error",
      "alerts.created_at",
    ])
    .where("alerts.account_id", "=", accountId)
    .where("alerts.status", "=", "failed")
    .orderBy("alerts.created_at", "desc")
    .limit(GIVEN_UP_LIMIT)
    .execute();
  return rows.map((r) => ({
    alertId: r.id,
    customerId: r.customer_id,
    name: `${r.first_name} ${r.last_name}`,
    channel: r.channel,
    target: r.target,
    attempts: r.attempts,
    lastError: r.last_error,
    createdAt: r.created_at,
  }));
}
