/** A pending invitation of one address in one account, read inside the caller's transaction. */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import type { UserRole } from "./roles.js";

export async function pendingInvitation(
  trx: Transaction<Database>,
  accountId: string,
  emailNormalized: string,
  now: number,
): Promise<{ email: string; role: UserRole; invitedBy: string } | null> {
  const row = await trx
    .selectFrom("user_invitations")
    .select(["email", "role", "invited_by"])
    .where("account_id", "=", accountId)
    .where("email_normalized", "=", emailNormalized)
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .orderBy("created_at", "desc")
    .executeTakeFirst();
  return row ? { email: row.email, role: row.role, invitedBy: row.invited_by } : null;
}
