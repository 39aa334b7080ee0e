/**
 * Changing one's password (Profile): the current password is required (checked under the log-in
 * throttle, check-current-password.ts), the new one follows the
 * sign-up rule, and every other session of the user ends (the one in use stays signed in).
 */
import { hashPassword } from "../accounts/password.js";
import { passwordProblem } from "../accounts/password-rule.js";
import { userActor } from "../audit/audit-actor.js";
import { checkCurrentPassword } from "./check-current-password.js";
import { storeNewPassword } from "./store-new-password.js";
import type { TeamDeps } from "./team-deps.js";

export type ChangePasswordResult =
  | { kind: "ok"; sessionsEnded: number }
  | { kind: "wrong-current" }
  | { kind: "throttled"; retryAfterMs: number }
  | { kind: "weak"; problem: string };

export async function changePassword(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: {
    userId: string;
    accountId: string;
    accountName: string;
    email: string;
    currentSessionHash: string;
    /** The client address, for the throttle. */
    ip: string;
    currentPassword: string;
    newPassword: string;
  },
): Promise<ChangePasswordResult> {
  const db = deps.db.kysely;
  const current = await checkCurrentPassword(deps, {
    userId: input.userId,
    email: input.email,
    ip: input.ip,
    password: input.currentPassword,
  });
  if (current.kind === "throttled") return current;
  if (current.kind === "wrong") return { kind: "wrong-current" };
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
