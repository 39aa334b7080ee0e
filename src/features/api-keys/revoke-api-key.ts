import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

export type RevokeResult = "revoked" | "already_revoked" | "not_found";

/**
 * Revokes a key; with `accountId` the key must belong to that account (the dashboard's case).
 * With an `actor`, the revocation is recorded in the account's audit trail, in its transaction.
 */
export async function revokeApiKey(
  db: Kysely<Database>,
  keyId: string,
  now: number,
  accountId?: string,
  actor?: AuditActor,
): Promise<RevokeResult> {
  return db.transaction().execute(async (trx) => {
    const key = await trx
      .selectFrom("api_keys")
      .innerJoin("stores", "stores.id", "api_keys.store_id")
      .select(["api_keys.revoked_at", "stores.account_id"])
      .where("api_keys.id", "=", keyId)
      .executeTakeFirst();
    if (!key || (accountId !== undefined && key.account_id !== accountId)) return "not_found";
    if (key.revoked_at !== null) return "already_revoked";
    const revoked = await trx
      .updateTable("api_keys")
      .set({ revoked_at: now })
      .where("id", "=", keyId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    if (revoked.numUpdatedRows === 0n) return "already_revoked";
    if (actor !== undefined) {
      await recordAuditEvent(
        trx,
        { accountId: key.account_id, actor, action: "api_key.revoked", subject: keyId },
        now,
      );
    }
    return "revoked";
  });
}
