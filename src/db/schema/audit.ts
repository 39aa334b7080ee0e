/**
 * The audit trail (features/audit): who did what to an account, and when.
 */

export type AuditActorKind = "user" | "cli" | "system";

/** Append-only (the database refuses UPDATE and DELETE): who did what, and when. */
export interface AuditEventsTable {
  id: string;
  account_id: string;
  occurred_at: number;
  actor_kind: AuditActorKind;
  /** The dashboard user's e-mail, the OS user of a CLI command, or the system task's name. */
  actor: string;
  action: string;
  /** What it was done to, by id only (a key id, a customer id): never a person's e-mail. */
  subject: string | null;
  /** JSON object with the particulars (which settings changed, how many rows went). */
  details: string | null;
}
