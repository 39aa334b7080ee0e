/**
 * Removing a destination: in one transaction its pending jobs, attempts and deliveries go with
 * it (nothing more is sent there), and the removal is audited. Another account's destination is
 * not found. Copies already delivered stay with the receiver: Velvet no longer reaches it.
 */
import type { Deps } from "../../deps.js";
import { AppError } from "../../lib/app-error.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { deliveryJobKey } from "./enqueue-deliveries.js";

export async function removeDestination(
  deps: Pick<Deps, "db" | "clock">,
  input: { accountId: string; destinationId: string; actor: AuditActor },
): Promise<void> {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("destinations")
      .select(["id", "kind", "target"])
      .where("id", "=", input.destinationId)
      .where("account_id", "=", input.accountId)
      .executeTakeFirst();
    if (row === undefined) throw new AppError("not_found", `No destination ${input.destinationId}`);
    const deliveries = trx
      .selectFrom("destination_deliveries")
      .select("id")
      .where("destination_id", "=", row.id);
    const ids = (await deliveries.execute()).map((d) => d.id);
    if (ids.length > 0) {
      await trx.deleteFrom("jobs").where("job_key", "in", ids.map(deliveryJobKey)).execute();
      await trx.deleteFrom("destination_attempts").where("delivery_id", "in", ids).execute();
    }
    await trx.deleteFrom("destination_deliveries").where("destination_id", "=", row.id).execute();
    await trx.deleteFrom("destinations").where("id", "=", row.id).execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "destination.removed",
        subject: row.id,
        details: { kind: row.kind, target: row.target },
      },
      deps.clock.now(),
    );
  });
}
