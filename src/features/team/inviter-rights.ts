/**
 * An invitation is only as good as its inviter: it carries the inviter's authority to grant its
 * role, so it ends when they are removed or can no longer grant that role (a demotion), and is
 * refused at acceptance if the inviter is gone or lost the right by any other path. Invitations
 * made at the `velvet` command (invited_by `cli:…`) carry the operator's authority and stay.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { mayGrant, ROLES, type UserRole } from "./roles.js";

const CLI_PREFIX = "cli:";

/** Deletes the pending invitations `inviterId` can no longer stand behind; returns how many. */
export async function endInvitationsOf(
  trx: Transaction<Database>,
  accountId: string,
  inviterId: string,
  roleNow: UserRole | null,
): Promise<number> {
  const lost = ROLES.filter((r) => roleNow === null || !mayGrant(roleNow, r));
  if (lost.length === 0) return 0;
  const ended = await trx
    .deleteFrom("user_invitations")
    .where("account_id", "=", accountId)
    .where("invited_by", "=", inviterId)
    .where("used_at", "is", null)
    .where("role", "in", lost)
    .executeTakeFirst();
  return Number(ended.numDeletedRows ?? 0n);
}

/** True when the inviter may still grant `role` in the account (inside the team lock). */
export async function inviterStillGrants(
  trx: Transaction<Database>,
  accountId: string,
  invitedBy: string,
  role: UserRole,
): Promise<boolean> {
  if (invitedBy.startsWith(CLI_PREFIX)) return true;
  const inviter = await trx
    .selectFrom("users")
    .select("role")
    .where("id", "=", invitedBy)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  return inviter !== undefined && mayGrant(inviter.role, role);
}

export function cliInviter(name: string): string {
  return `${CLI_PREFIX}${name}`;
}
