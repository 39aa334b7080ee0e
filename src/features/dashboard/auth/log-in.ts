/**
 * Signing in. An unknown e-mail, a user without a password and a wrong password all give the
 * same answer, and all cost one argon2 verification (against a dummy hash when there is no
 * real one), so neither the answer nor its timing tells whether an account exists.
 *
 * The attempt is reserved (counted) before the password is checked, so a burst of guesses sent
 * at once checks no more passwords than the limits allow (security/password-check-throttle.ts).
 */
import type { Deps } from "../../../deps.js";
import { hashPassword, verifyPassword } from "../../accounts/password.js";
import { MAX_PASSWORD_LENGTH } from "../../accounts/password-rule.js";
import { normalizeEmail } from "../../orders/email-address.js";
import { checkPasswordThrottled } from "../../security/password-check-throttle.js";

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
  return checkPasswordThrottled<LogInResult>(
    db,
    { email, ip: input.ip },
    deps.clock.now(),
    async () => {
      const user = await db
        .selectFrom("users")
        .select(["id", "account_id", "password_hash"])
        .where("email_normalized", "=", email)
        .executeTakeFirst();
      const password = input.password.slice(0, MAX_PASSWORD_LENGTH + 1);
      const hash = user?.password_hash ?? (await getDummyHash());
      const matches = await verifyPassword(hash, password);
      if (!user || user.password_hash === null || !matches || password.length > MAX_PASSWORD_LENGTH)
        return {
          succeeded: false,
          result: user ? { kind: "invalid", accountId: user.account_id } : { kind: "invalid" },
        };
      return {
        succeeded: true,
        result: { kind: "ok", userId: user.id, accountId: user.account_id },
      };
    },
  );
}
