/**
 * Signing up in the dashboard, by SIGNUP mode (config.ts):
 * - first-account (SIGNUP unset): only while no account exists; that account is created at once
 *   and signed in. Later merchants come from `velvet account create`.
 * - closed: never; the page says so.
 * - open: anyone, but the address must be verified first (request-sign-up.ts): the answer is
 *   "check your inbox" whether or not the address is taken.
 * Every attempt is reserved with the sign-up throttle before the password is hashed.
 */

import type { Deps } from "../../../deps.js";
import { createAccount, NotFirstAccountError } from "../../accounts/create-account.js";
import { hashPassword } from "../../accounts/password.js";
import { passwordProblem } from "../../accounts/password-rule.js";
import type { AlertsDeps } from "../../alerts/alert-deps.js";
import { checkEmail, normalizeEmail } from "../../orders/email-address.js";
import {
  reserveAuthAttempt,
  SIGNUP_POLICY,
  settleAuthAttempt,
} from "../../security/auth-throttle.js";
import { requestSignUp } from "./request-sign-up.js";

export interface SignUpInput {
  storeName: string;
  email: string;
  password: string;
  ip: string;
}

export type SignUpField = "storeName" | "email" | "password";

export type SignUpResult =
  | { kind: "ok"; userId: string; accountId: string; keyId: string; apiKey: string }
  | { kind: "check-inbox" }
  | { kind: "closed" }
  | { kind: "invalid"; errors: Partial<Record<SignUpField, string>> }
  | { kind: "throttled"; retryAfterMs: number };

export function validateSignUp(input: SignUpInput): Partial<Record<SignUpField, string>> {
  const errors: Partial<Record<SignUpField, string>> = {};
  const name = input.storeName.trim();
  if (name === "") errors.storeName = "Enter your store's name.";
  else if (name.length > 100) errors.storeName = "Use at most 100 characters.";
  if (checkEmail(input.email) === "invalid")
    errors.email = "Enter a valid e-mail address, like you@example.com.";
  const problem = passwordProblem(input.password, [input.email, name]);
  if (problem !== null) errors.password = problem;
  return errors;
}

/** Whether the sign-up form is open right now. */
export async function signUpOpen(deps: Pick<Deps, "db" | "config">): Promise<boolean> {
  switch (deps.config.signup) {
    case "open":
      return true;
    case "closed":
      return false;
    case "first-account": {
      const any = await deps.db.kysely
        .selectFrom("accounts")
        .select("id")
        .limit(1)
        .executeTakeFirst();
      return any === undefined;
    }
  }
}

export async function signUp(
  deps: Pick<Deps, "db" | "clock" | "config" | "log"> & AlertsDeps,
  input: SignUpInput,
): Promise<SignUpResult> {
  if (!(await signUpOpen(deps))) return { kind: "closed" };
  const errors = validateSignUp(input);
  if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
  const db = deps.db.kysely;
  const email = normalizeEmail(input.email);
  const reservation = await reserveAuthAttempt(
    db,
    SIGNUP_POLICY,
    { email, ip: input.ip },
    deps.clock.now(),
  );
  if (reservation.kind === "throttled") return reservation;
  try {
    const passwordHash = await hashPassword(input.password);
    const storeName = input.storeName.trim();
    if (deps.config.signup === "open") {
      await requestSignUp(deps, { email: input.email.trim(), storeName, passwordHash });
      return { kind: "check-inbox" };
    }
    const created = await createAccount(
      db,
      { name: storeName, ownerEmail: input.email, passwordHash, onlyIfFirst: true },
      deps.clock.now(),
    );
    return { kind: "ok", ...created };
  } catch (error) {
    if (error instanceof NotFirstAccountError) return { kind: "closed" };
    throw error;
  } finally {
    await settleAuthAttempt(db, reservation, "succeeded");
  }
}
