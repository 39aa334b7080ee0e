/**
 * Changing a member's role and removing a member. Whom one may touch depends on the target, so
 * the use case checks it (the route guard only admits admins and owners):
 * - an admin may change and remove admins and members, never an owner, and never grant owner;
 * - an owner (and the operator) may do anything, but an account always keeps one owner.
 * A removed or demoted person's sessions end in the same transaction: their next request
 * finds no session (and a kept session would anyway read the new role on every request); so do
 * the pending invitations they can no longer grant (inviter-rights.ts). The actor's own role is
 * read inside the team lock, not taken from their session.
 */
import type { Transaction } from "kysely";
import { rolledBack } from "../../db/rolled-back.js";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { normalizeEmail } from "../orders/email-address.js";
import { endInvitationsOf } from "./inviter-rights.js";
import { lockTeam, ownerCount } from "./lock-team.js";
import { atLeast, isRole, mayGrant, type UserRole } from "./roles.js";
import type { TeamActor } from "./team-actor.js";
import { authorityInLock } from "./team-authority.js";
import type { TeamDeps } from "./team-deps.js";

export type MemberRef = { userId: string } | { email: string };

interface Target {
  id: string;
  email: string;
  role: UserRole;
}

async function findTarget(
  trx: Transaction<Database>,
  accountId: string,
  ref: MemberRef,
): Promise<Target> {
  let query = trx
    .selectFrom("users")
    .select(["id", "email", "role"])
    .where("account_id", "=", accountId);
  query =
    "userId" in ref
      ? query.where("id", "=", ref.userId)
      : query.where("email_normalized", "=", normalizeEmail(ref.email));
  const target = await query.executeTakeFirst();
  if (!target) throw new AppError("not_found", "No such member in this account.");
  return target;
}

function mayTouch(authority: UserRole | "operator", target: Target): void {
  if (!mayGrant(authority, target.role))
    throw new AppError("forbidden", "Only an owner can change or remove an owner.");
}

/**
 * Locks the team, finds the member and checks the actor may touch them, with the actor's role
 * as it is inside the lock (returned for the caller's own checks).
 */
async function lockedTarget(
  trx: Transaction<Database>,
  input: { accountId: string; member: MemberRef; actor: TeamActor },
): Promise<{ target: Target; authority: UserRole | "operator" }> {
  if (!(await lockTeam(trx, input.accountId)))
    throw new AppError("not_found", "No such open account.");
  const authority = await authorityInLock(trx, input.accountId, input.actor);
  const target = await findTarget(trx, input.accountId, input.member);
  mayTouch(authority, target);
  return { target, authority };
}

async function endSessionsOf(trx: Transaction<Database>, userId: string): Promise<number> {
  const ended = await trx.deleteFrom("sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(ended.numDeletedRows ?? 0n);
}

async function keepAnOwner(trx: Transaction<Database>, accountId: string, target: Target) {
  if (target.role === "owner" && (await ownerCount(trx, accountId)) <= 1)
    throw new AppError(
      "conflict",
      "An account needs at least one owner: make someone else owner first.",
    );
}

export async function changeRole(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: { accountId: string; member: MemberRef; role: string; actor: TeamActor },
): Promise<{ from: UserRole; to: UserRole; sessionsEnded: number; invitationsEnded: number }> {
  if (!isRole(input.role))
    throw new AppError("bad_request", "Choose a role: owner, admin or member.");
  const role: UserRole = input.role;
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const { target, authority } = await lockedTarget(trx, input);
    if (!mayGrant(authority, role))
      throw new AppError("forbidden", "Only an owner can make someone an owner.");
    if (target.role === role)
      return { from: role, to: role, sessionsEnded: 0, invitationsEnded: 0 };
    if (role !== "owner") await keepAnOwner(trx, input.accountId, target);
    await trx.updateTable("users").set({ role }).where("id", "=", target.id).execute();
    // A demotion ends the person's sessions, and the invitations they can no longer grant; a
    // promotion keeps them signed in.
    const demoted = !atLeast(role, target.role);
    const sessionsEnded = demoted ? await endSessionsOf(trx, target.id) : 0;
    const invitationsEnded = demoted
      ? await endInvitationsOf(trx, input.accountId, target.id, role)
      : 0;
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor.audit,
        action: "team.role_changed",
        subject: target.id,
        details: {
          email: target.email,
          role: { from: target.role, to: role },
          sessionsEnded,
          ...(invitationsEnded > 0 ? { invitationsEnded } : {}),
        },
      },
      now,
    );
    return { from: target.role, to: role, sessionsEnded, invitationsEnded };
  });
}

type RemoveInput = { accountId: string; member: MemberRef; actor: TeamActor };

async function removeTarget(trx: Transaction<Database>, input: RemoveInput) {
  const { target } = await lockedTarget(trx, input);
  await keepAnOwner(trx, input.accountId, target);
  const sessionsEnded = await endSessionsOf(trx, target.id);
  const invitationsEnded = await endInvitationsOf(trx, input.accountId, target.id, null);
  await trx.deleteFrom("users").where("id", "=", target.id).execute();
  return { target, sessionsEnded, invitationsEnded };
}

/** What removing the member would do (or the same refusal), with nothing changed. */
export function previewRemoveMember(
  deps: Pick<TeamDeps, "db">,
  input: RemoveInput,
): Promise<{ email: string; role: UserRole; sessionsEnded: number }> {
  return rolledBack(deps.db.kysely, async (trx) => {
    const { target, sessionsEnded } = await removeTarget(trx, input);
    return { email: target.email, role: target.role, sessionsEnded };
  });
}

export async function removeMember(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: RemoveInput,
): Promise<{ email: string; sessionsEnded: number }> {
  const now = deps.clock.now();
  return deps.db.kysely.transaction().execute(async (trx) => {
    const { target, sessionsEnded, invitationsEnded } = await removeTarget(trx, input);
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor.audit,
        action: "team.removed",
        subject: target.id,
        details: {
          email: target.email,
          role: target.role,
          sessionsEnded,
          ...(invitationsEnded > 0 ? { invitationsEnded } : {}),
        },
      },
      now,
    );
    return { email: target.email, sessionsEnded };
  });
}
