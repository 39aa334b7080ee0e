/**
 * Regenerate = revoke one key and issue its replacement in the same store, in one transaction:
 * either both happen or neither. The key must belong to the given account.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";
import { type CreatedApiKey, createApiKey } from "../../api-keys/create-api-key.js";
import type { AuditActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";

export type RegenerateResult =
  | ({ kind: "ok" } & CreatedApiKey)
  | { kind: "not_found" }
  | { kind: "already_revoked" };

export async function regenerateApiKey(
  db: Kysely<Database>,
  accountId: string,
  keyId: string,
  now: number,
  actor: AuditActor,
): Promise<RegenerateResult> {
  return db.transaction().execute(async (trx) => {
    const key = await trx
      .selectFrom("api_keys")
      .innerJoin("stores", "stores.id", "api_keys.store_id")
      .select(["api_keys.store_id", "api_keys.revoked_at"])
      .where("api_keys.id", "=", keyId)
      .where("stores.account_id", "=", accountId)
      .executeTakeFirst();
    if (!key) return { kind: "not_found" } as const;
    const revoked = await trx
      .updateTable("api_keys")
      .set({ revoked_at: now })
      .where("id", "=", keyId)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    // Revoked already, or by a concurrent request a moment ago: no second replacement.
    if (revoked.numUpdatedRows === 0n) return { kind: "already_revoked" } as const;
    const created = await createApiKey(trx, key.store_id, now);
    await recordAuditEvent(
      trx,
      {
        accountId,
        actor,
        action: "api_key.regenerated",
        subject: keyId,
        details: { replacedBy: created.keyId },
      },
      now,
    );
    return { kind: "ok", ...created } as const;
  });
}
