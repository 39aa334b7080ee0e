/**
 * What every new password does, inside the caller's transaction (change on Profile, reset by
 * link): store the hash, void the user's open reset links (asked for with the old password in
 * mind), end the user's sessions but `keepSession`, and record it with how many ended.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditAction } from "../audit/audit-actions.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

export async function storeNewPassword(
  trx: Transaction<Database>,
  input: {
    userId: string;
    accountId: string;
    passwordHash: string;
    actor: AuditActor;
    action: Extract<AuditAction, "user.password_changed" | "user.password_reset">;
    keepSession?: string;
  },
  now: number,
): Promise<number> {
  await trx
    .updateTable("users")
    .set({ password_hash: input.passwordHash })
    .where("id", "=", input.userId)
    .execute();
  await trx
    .deleteFrom("password_resets")
    .where("user_id", "=", input.userId)
    .where("used_at", "is", null)
    .execute();
  let sessions = trx.deleteFrom("sessions").where("user_id", "=", input.userId);
  if (input.keepSession !== undefined)
    sessions = sessions.where("id_hash", "!=", input.keepSession);
  const sessionsEnded = Number((await sessions.executeTakeFirst()).numDeletedRows ?? 0n);
  await recordAuditEvent(
    trx,
    {
      accountId: input.accountId,
      actor: input.actor,
      action: input.action,
      subject: input.userId,
      details: { sessionsEnded },
    },
    now,
  );
  return sessionsEnded;
}

/** A new reset link row (the token's hash only). */
export async function insertResetLink(
  trx: Transaction<Database>,
  link: { userId: string; tokenHash: string; now: number; expiresAt: number },
): Promise<void> {
  await trx
    .insertInto("password_resets")
    .values({
      token_hash: link.tokenHash,
      user_id: link.userId,
      created_at: link.now,
      expires_at: link.expiresAt,
      used_at: null,
    })
    .execute();
}
