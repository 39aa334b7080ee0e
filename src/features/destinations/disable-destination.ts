/**
 * Turning a destination off and on.
 * - Disabled by its receiver: a delivery answered 410 Gone, the Standard Webhooks signal that the
 *   endpoint wants nothing more, disables the destination in the attempt's transaction, audited
 *   as the system's doing with the answer as the reason. From then on its events are recorded as
 *   failed deliveries ("not sent: …") and not sent; deliveries already queued fail the same way
 *   when their turn comes, without a request.
 * - Enabled again by the merchant (dashboard or `velvet destination enable`), audited: the next
 *   events are sent. What was recorded while it was off stays failed, each one sendable again
 *   from the destination's log ("Send again").
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { AppError } from "../../lib/app-error.js";
import { type AuditActor, systemActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

/**
 * Why a receiver's answer disabled its destination, as stored and audited: the status alone. The
 * receiver's body may echo what it was sent (a person's e-mail), and the audit trail is never
 * erased; the body stays in the attempt's record, which erasure reaches.
 */
export const GONE_REASON = "410 Gone";

/** Why an event for a disabled destination was not sent, as its delivery's error says. */
export function notSentBecauseDisabled(disabledAt: number, reason: string | null): string {
  const when = new Date(disabledAt).toISOString();
  return `not sent: the destination was disabled at ${when} (${reason ?? "by its receiver"}); enable it to send again`;
}

/** In the attempt's transaction: disables it unless it already is, and audits that once. */
export async function disableDestination(
  trx: Transaction<Database>,
  d: { accountId: string; destinationId: string; reason: string; at: number },
): Promise<void> {
  const changed = await trx
    .updateTable("destinations")
    .set({ disabled_at: d.at, disabled_reason: d.reason })
    .where("id", "=", d.destinationId)
    .where("disabled_at", "is", null)
    .executeTakeFirst();
  if (Number(changed.numUpdatedRows) === 0) return;
  await recordAuditEvent(
    trx,
    {
      accountId: d.accountId,
      actor: systemActor("deliver-to-destination"),
      action: "destination.disabled",
      subject: d.destinationId,
      details: { reason: d.reason },
    },
    d.at,
  );
}

/**
 * The merchant turns it back on. False when it was not disabled (nothing changes, nothing is
 * audited); another account's destination is not found.
 */
export async function enableDestination(
  deps: Pick<Deps, "db" | "clock">,
  input: { accountId: string; destinationId: string; actor: AuditActor },
): Promise<boolean> {
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("destinations")
      .select(["id", "kind", "target", "disabled_at", "disabled_reason"])
      .where("id", "=", input.destinationId)
      .where("account_id", "=", input.accountId)
      .executeTakeFirst();
    if (row === undefined) throw new AppError("not_found", `No destination ${input.destinationId}`);
    if (row.disabled_at === null) return false;
    await trx
      .updateTable("destinations")
      .set({ disabled_at: null, disabled_reason: null })
      .where("id", "=", row.id)
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "destination.enabled",
        subject: row.id,
        details: { kind: row.kind, target: row.target, reason: row.disabled_reason },
      },
      now,
    );
    return true;
  });
}
