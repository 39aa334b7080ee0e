/**
 * Checking a signed-in user's current password (password change, closing the account) under the
 * log-in throttle's rules and on the same budget (action `login`): it is the same secret, so a
 * stolen session must not become a faster way to guess it than the log-in form. Reserved before
 * the check, delayed after repeated failures, forgiven by a success (security/auth-throttle.ts).
 */
import { setTimeout as sleep } from "node:timers/promises";
import { verifyPassword } from "../accounts/password.js";
import { MAX_PASSWORD_LENGTH } from "../accounts/password-rule.js";
import { normalizeEmail } from "../orders/email-address.js";
import { LOGIN_POLICY, reserveAuthAttempt, settleAuthAttempt } from "../security/auth-throttle.js";
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
  const reservation = await reserveAuthAttempt(
    db,
    LOGIN_POLICY,
    { email, ip: input.ip },
    deps.clock.now(),
  );
  if (reservation.kind === "throttled") return reservation;
  let ok = false;
  try {
    if (reservation.delayMs > 0) await sleep(reservation.delayMs);
    const user = await db
      .selectFrom("users")
      .select("password_hash")
      .where("id", "=", input.userId)
      .executeTakeFirst();
    const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
    ok =
      user?.password_hash != null &&
      password.length <= MAX_PASSWORD_LENGTH &&
      (await verifyPassword(user.password_hash, password));
    return ok ? { kind: "ok" } : { kind: "wrong" };
  } finally {
    await settleAuthAttempt(db, reservation, ok ? "succeeded" : "failed", { forgiveEmail: true });
  }
}
