/**
 * Checking a signed-in user's current password (password change, closing the account) under the
 * log-in throttle's rules and on the same budget (action `login`): it is the same secret, so a
 * stolen session must not become a faster way to guess it than the log-in form. Reserved before
 * the check, delayed after repeated failures, forgiven by a success (security/password-check-throttle.ts).
 */
import { verifyPassword } from "../accounts/password.js";
import { MAX_PASSWORD_LENGTH } from "../accounts/password-rule.js";
import { normalizeEmail } from "../orders/email-address.js";
import { checkPasswordThrottled } from "../security/password-check-throttle.js";
import type { TeamDeps } from "./team-deps.js";

export type CurrentPasswordCheck =
  | { kind: "ok" }
  | { kind: "wrong" }
  | { kind: "throttled"; retryAfterMs: number };

export async function checkCurrentPassword(
  deps: Pick<TeamDeps, "db" | "clock">,
  input: { userId: string; email: string; ip: string; password: string },
): Promise<CurrentPasswordCheck> {
  const db = deps.db.kysely;
  const email = normalizeEmail(input.email).slice(0, 320);
  return checkPasswordThrottled(db, { email, ip: input.ip }, deps.clock.now(), async () => {
    const user = await db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", input.userId)
      .executeTakeFirst();
    const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
    const ok =
      user?.password_hash != null &&
      password.length <= MAX_PASSWORD_LENGTH &&
      (await verifyPassword(user.password_hash, password));
    return { succeeded: ok, result: ok ? { kind: "ok" as const } : { kind: "wrong" as const } };
  });
}
