/**
 * Signing in. An unknown e-mail, a user without a password and a wrong password all give the
 * same answer, and all cost one argon2 verification (against a dummy hash when there is no
 * real one), so neither the answer nor its timing tells whether an account exists.
 */
import type { Deps } from "../../../deps.js";
import { hashPassword, verifyPassword } from "../../accounts/password.js";
import { normalizeEmail } from "../../orders/email-address.js";
import {
  clearAttempts,
  emailThrottle,
  ipThrottle,
  recordAttempt,
  throttledFor,
} from "./login-throttle.js";

export const MAX_PASSWORD_LENGTH = 1024;

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
  const emailNormalized = normalizeEmail(input.email).slice(0, 320);
  const keys = [emailThrottle(emailNormalized), ipThrottle(input.ip)];
  const wait = await throttledFor(db, keys, deps.clock.now());
  if (wait > 0) return { kind: "throttled", retryAfterMs: wait };

  const user = await db
    .selectFrom("users")
    .select(["id", "account_id", "password_hash"])
    .where("email_normalized", "=", emailNormalized)
    .executeTakeFirst();
  const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
  const hash = user?.password_hash ?? (await getDummyHash());
  const matches = await verifyPassword(hash, password);
  if (!user || user.password_hash === null || !matches || password.length > MAX_PASSWORD_LENGTH) {
    await recordAttempt(db, keys, deps.clock.now());
    return user ? { kind: "invalid", accountId: user.account_id } : { kind: "invalid" };
  }
  await clearAttempts(db, keys[0] as (typeof keys)[0]);
  return { kind: "ok", userId: user.id, accountId: user.account_id };
}
