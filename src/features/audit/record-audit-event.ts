/**
 * Appends one event to the audit trail, inside the caller's transaction when it has one, so
 * the record commits with the change it describes or not at all. The table is append-only
 * (the database refuses UPDATE and DELETE); subjects are ids, never a person's e-mail, so an
 * erasure leaves nothing of the person behind in the trail.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import type { AuditAction } from "./audit-actions.js";
import type { AuditActor } from "./audit-actor.js";

export interface AuditEventInput {
  accountId: string;
  actor: AuditActor;
  action: AuditAction;
  subject?: string | null;
  details?: Record<string, unknown> | null;
}

export async function recordAuditEvent(
  db: Kysely<Database> | Transaction<Database>,
  event: AuditEventInput,
  now: number,
): Promise<void> {
  await db
    .insertInto("audit_events")
    .values({
      id: newId(now),
      account_id: event.accountId,
      occurred_at: now,
      actor_kind: event.actor.kind,
      actor: event.actor.name,
      action: event.action,
      subject: event.subject ?? null,
      details: event.details ? JSON.stringify(event.details) : null,
    })
    .execute();
}
