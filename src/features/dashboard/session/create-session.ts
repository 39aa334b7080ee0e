/**
 * Starts a session at sign-in: always a new id (never one the browser brought along, which
 * closes session fixation), a new CSRF token, and the user's expired sessions swept away.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";
import { hashSessionId, newSecret, SESSION_IDLE_MS } from "./session-token.js";

export interface NewSession {
  rawId: string;
  expiresAt: number;
}

export async function createSession(
  db: Kysely<Database>,
  user: { userId: string; accountId: string },
  now: number,
  /** Shown on Profile's list of sessions: the client address and the browser family. */
  seenFrom: { ip: string | null; browser: string | null } = { ip: null, browser: null },
): Promise<NewSession> {
  const rawId = newSecret();
  const expiresAt = now + SESSION_IDLE_MS;
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom("sessions")
      .where("user_id", "=", user.userId)
      .where("expires_at", "<=", now)
      .execute();
    await trx
      .insertInto("sessions")
      .values({
        id_hash: hashSessionId(rawId),
        user_id: user.userId,
        account_id: user.accountId,
        csrf_token: newSecret(),
        created_at: now,
        expires_at: expiresAt,
        ip: seenFrom.ip,
        browser: seenFrom.browser,
        last_seen_at: now,
      })
      .execute();
    await trx
      .updateTable("users")
      .set({ last_sign_in_at: now })
      .where("id", "=", user.userId)
      .execute();
  });
  return { rawId, expiresAt };
}

export async function deleteSession(db: Kysely<Database>, rawId: string): Promise<void> {
  await db.deleteFrom("sessions").where("id_hash", "=", hashSessionId(rawId)).execute();
}
