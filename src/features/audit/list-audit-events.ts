/** One account's audit trail, newest first, a page at a time. */
import type { Kysely } from "kysely";
import type { AuditActorKind, Database } from "../../db/schema.js";

export const AUDIT_PAGE_SIZE = 50;

export interface AuditEventView {
  id: string;
  occurredAt: string;
  actorKind: AuditActorKind;
  actor: string;
  action: string;
  subject: string | null;
  details: Record<string, unknown> | null;
}

export interface AuditPage {
  events: AuditEventView[];
  total: number;
  page: number;
  pageSize: number;
}

export async function listAuditEvents(
  db: Kysely<Database>,
  accountId: string,
  options: { page?: number; pageSize?: number } = {},
): Promise<AuditPage> {
  const pageSize = options.pageSize ?? AUDIT_PAGE_SIZE;
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const [count, rows] = await Promise.all([
    db
      .selectFrom("audit_events")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirst(),
    db
      .selectFrom("audit_events")
      .selectAll()
      .where("account_id", "=", accountId)
      .orderBy("occurred_at", "desc")
      .orderBy("id", "desc")
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
  ]);
  return {
    total: Number(count?.n ?? 0),
    page,
    pageSize,
    events: rows.map((r) => ({
      id: r.id,
      occurredAt: new Date(r.occurred_at).toISOString(),
      actorKind: r.actor_kind,
      actor: r.actor,
      action: r.action,
      subject: r.subject,
      details: r.details === null ? null : (JSON.parse(r.details) as Record<string, unknown>),
    })),
  };
}
