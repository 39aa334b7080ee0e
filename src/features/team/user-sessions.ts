/**
 * A user's own signed-in sessions (Profile): when each started and was last used, from which
 * address and browser family; end one, or all but the current. Sessions are identified on the
 * page by the SHA-256 the database keeps, which cannot be replayed as a cookie.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

export interface UserSession {
  idHash: string;
  createdAt: number;
  lastSeenAt: number | null;
  ip: string | null;
  browser: string | null;
  current: boolean;
}

export async function listUserSessions(
  db: Kysely<Database>,
  userId: string,
  currentIdHash: string,
  now: number,
): Promise<UserSession[]> {
  const rows = await db
    .selectFrom("sessions")
    .select(["id_hash", "created_at", "last_seen_at", "ip", "browser"])
    .where("user_id", "=", userId)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .execute();
  return rows.map((r) => ({
    idHash: r.id_hash,
    createdAt: r.created_at,
    lastSeenAt: r.last_seen_at,
    ip: r.ip,
    browser: r.browser,
    current: r.id_hash === currentIdHash,
  }));
}

/**
 * Ends the user's sessions: `only` one of them, or every one but `keep`. Returns how many
 * ended and records it (nothing is recorded when none did).
 */
export async function endUserSessions(
  db: Kysely<Database>,
  input: {
    accountId: string;
    userId: string;
    actor: AuditActor;
    only?: string;
    keep?: string;
  },
  now: number,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    let query = trx.deleteFrom("sessions").where("user_id", "=", input.userId);
    if (input.only !== undefined) query = query.where("id_hash", "=", input.only);
    if (input.keep !== undefined) query = query.where("id_hash", "!=", input.keep);
    const ended = Number((await query.executeTakeFirst()).numDeletedRows ?? 0n);
    if (ended > 0) {
      await recordAuditEvent(
        trx,
        {
          accountId: input.accountId,
          actor: input.actor,
          action: "user.sessions_ended",
          subject: input.userId,
          details: { sessionsEnded: ended },
        },
        now,
      );
    }
    return ended;
  });
}
