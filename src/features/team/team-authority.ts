/**
 * The acting user's role as it is now, read inside the team lock: the role a session loaded at
 * the start of its request may be stale by the time the change runs (an owner demoted the admin
 * a moment ago, or removed them), and team changes must be judged against the team as it is.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import type { UserRole } from "./roles.js";
import type { TeamActor } from "./team-actor.js";

export async function authorityInLock(
  trx: Transaction<Database>,
  accountId: string,
  actor: TeamActor,
): Promise<UserRole | "operator"> {
  if (actor.userId === null) return "operator";
  const row = await trx
    .selectFrom("users")
    .select("role")
    .where("id", "=", actor.userId)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw new AppError("forbidden", "You are no longer a member of this team.");
  if (row.role === "member")
    throw new AppError("forbidden", "Only owners and admins manage the team.");
  return row.role;
}
