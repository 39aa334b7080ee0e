import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { KEY_PREFIX } from "./key-format.js";

export interface ApiKeySummary {
  keyId: string;
  storeId: string;
  display: string;
  last4: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: "active" | "revoked";
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export async function listApiKeys(
  db: Kysely<Database>,
  accountId: string,
): Promise<ApiKeySummary[]> {
  const rows = await db
    .selectFrom("api_keys")
    .innerJoin("stores", "stores.id", "api_keys.store_id")
    .select([
      "api_keys.id",
      "api_keys.store_id",
      "api_keys.last4",
      "api_keys.created_at",
      "api_keys.last_used_at",
      "api_keys.revoked_at",
    ])
    .where("stores.account_id", "=", accountId)
    .orderBy("api_keys.created_at", "desc")
    .execute();
  return rows.map((r) => ({
    keyId: r.id,
    storeId: r.store_id,
    display: `${KEY_PREFIX}…${r.last4}`,
    last4: r.last4,
    createdAt: iso(r.created_at) as string,
    lastUsedAt: iso(r.last_used_at),
    revokedAt: iso(r.revoked_at),
    status: r.revoked_at === null ? "active" : "revoked",
  }));
}

/** One key by its id, with the account it belongs to; null when there is no such key. */
export async function findApiKey(
  db: Kysely<Database>,
  keyId: string,
): Promise<(ApiKeySummary & { accountId: string }) | null> {
  const row = await db
    .selectFrom("api_keys")
    .innerJoin("stores", "stores.id", "api_keys.store_id")
    .select(["stores.account_id", "api_keys.last_used_at", "api_keys.revoked_at"])
    .select(["api_keys.id", "api_keys.store_id", "api_keys.last4", "api_keys.created_at"])
    .where("api_keys.id", "=", keyId)
    .executeTakeFirst();
  if (!row) return null;
  return {
    accountId: row.account_id,
    keyId: row.id,
    storeId: row.store_id,
    display: `${KEY_PREFIX}…${row.last4}`,
    last4: row.last4,
    createdAt: iso(row.created_at) as string,
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
    status: row.revoked_at === null ? "active" : "revoked",
  };
}
