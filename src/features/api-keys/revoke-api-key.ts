import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export type RevokeResult = "revoked" | "already_revoked" | "not_found";

/** Revokes a key; with `accountId` the key must belong to that account (the dashboard's case). */
export async function revokeApiKey(
  db: Kysely<Database>,
  keyId: string,
  now: number,
  accountId?: string,
): Promise<RevokeResult> {
  const key = await db
    .selectFrom("api_keys")
    .innerJoin("stores", "stores.id", "api_keys.store_id")
    .select(["api_keys.revoked_at", "stores.account_id"])
    .where("api_keys.id", "=", keyId)
    .executeTakeFirst();
  if (!key || (accountId !== undefined && key.account_id !== accountId)) return "not_found";
  if (key.revoked_at !== null) return "already_revoked";
  await db
    .updateTable("api_keys")
    .set({ revoked_at: now })
    .where("id", "=", keyId)
    .where("revoked_at", "is", null)
    .execute();
  return "revoked";
}
