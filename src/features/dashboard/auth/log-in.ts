/**
 * Signing in. An unknown e-mail, a user without a password and a wrong password all give the
 * same answer, and all cost one argon2 verification (against a dummy hash when there is no
 * real one), so neither the answer nor its timing tells whether an account exists.
 *
 * The attempt is reserved (counted) before the password is checked, so a burst of guesses sent
 * at once checks no more passwords than the limits allow (security/auth-throttle.ts).
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Deps } from "../../../deps.js";
import { hashPassword, verifyPassword } from "../../accounts/password.js";
import { MAX_PASSWORD_LENGTH } from "../../accounts/password-rule.js";
import { normalizeEmail } from "../../orders/email-address.js";
import {
  LOGIN_POLICY,
  reserveAuthAttempt,
  settleAuthAttempt,
} from "../../security/auth-throttle.js";

export type LogInResult =
  | { kind: "ok"; userId: string; accountId: string }
  /** `accountId` when the e-mail is a user's: the failure goes in that account's audit trail. */
  | { kind: "invalid"; accountId?: string }
  | { kind: "throttled"; retryAfterMs: number };

let dummyHash: Promise<string> | null = null;
function getDummyHash(): Promise<string> {
  dummyHash ??= hashPassword("velvet-dummy-password-for-constant-time-checks");
  return dummyHash;
}

export async function logIn(
  deps: Pick<Deps, "db" | "clock">,
  input: { email: string; password: string; ip: string },
): Promise<LogInResult> {
  const db = deps.db.kysely;
  const email = normalizeEmail(input.email).slice(0, 320);
  const reservation = await reserveAuthAttempt(
    db,
    LOGIN_POLICY,
    { email, ip: input.ip },
    deps.clock.now(),
  );
  if (reservation.kind === "throttled") return reservation;
  let succeeded = false;
  try {
    // Growing delay per e-mail: slows guessing from many addresses without locking anyone out.
    if (reservation.delayMs > 0) await sleep(reservation.delayMs);
    const user = await db
      .selectFrom("users")
      .select(["id", "account_id", "password_hash"])
      .where("email_normalized", "=", email)
      .executeTakeFirst();
    const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
    const hash = user?.password_hash ?? (await getDummyHash());
    const matches = await verifyPassword(hash, password);
    if (!user || user.password_hash === null || !matches || password.length > MAX_PASSWORD_LENGTH)
      return user ? { kind: "invalid", accountId: user.account_id } : { kind: "invalid" };
    succeeded = true;
    return { kind: "ok", userId: user.id, accountId: user.account_id };
  } finally {
    // Settled whatever happened (an error counts as a failure, like a wrong password).
    await settleAuthAttempt(db, reservation, succeeded ? "succeeded" : "failed", {
      forgiveEmail: true,
    });
  }
}
