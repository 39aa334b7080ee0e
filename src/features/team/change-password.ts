/**
 * Changing one's password (Profile): the current password is required, the new one follows the
 * sign-up rule, and every other session of the user ends (the one in use stays signed in).
 */
import { hashPassword, verifyPassword } from "../accounts/password.js";
import { passwordProblem } from "../accounts/password-rule.js";
import { userActor } from "../audit/audit-actor.js";
import { storeNewPassword } from "./store-new-password.js";
import type { TeamDeps } from "./team-deps.js";

export type ChangePasswordResult =
  | { kind: "ok"; sessionsEnded: number }
  | { kind: "wrong-current" }
  | { kind: "weak"; problem: string };

export async function changePassword(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: {
    userId: string;
    accountId: string;
    accountName: string;
    email: string;
    currentSessionHash: string;
    currentPassword: string;
    newPassword: string;
  },
): Promise<ChangePasswordResult> {
  const db = deps.db.kysely;
  const user = await db
    .selectFrom("users")
    .select("password_hash")
    .where("id", "=", input.userId)
    .executeTakeFirst();
  if (!user?.password_hash || !(await verifyPassword(user.password_hash, input.currentPassword)))
    return { kind: "wrong-current" };
  const problem = passwordProblem(input.newPassword, [input.email, input.accountName]);
  if (problem) return { kind: "weak", problem };
  const hash = await hashPassword(input.newPassword);
  const now = deps.clock.now();
  return db.transaction().execute(async (trx) => {
    const sessionsEnded = await storeNewPassword(
      trx,
      {
        userId: input.userId,
        accountId: input.accountId,
        passwordHash: hash,
        actor: userActor(input.email),
        action: "user.password_changed",
        keepSession: input.currentSessionHash,
      },
      now,
    );
    return { kind: "ok" as const, sessionsEnded };
  });
}
