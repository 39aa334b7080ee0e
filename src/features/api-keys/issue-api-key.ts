/** A new API key for an account's store, recorded in the audit trail in the same transaction. */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { type CreatedApiKey, createApiKey } from "./create-api-key.js";

export async function issueApiKey(
  db: Kysely<Database>,
  input: { accountId: string; storeId: string; actor: AuditActor },
  now: number,
): Promise<CreatedApiKey> {
  return db.transaction().execute(async (trx) => {
    const created = await createApiKey(trx, input.storeId, now);
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "api_key.created",
        subject: created.keyId,
      },
      now,
    );
    return created;
  });
}
