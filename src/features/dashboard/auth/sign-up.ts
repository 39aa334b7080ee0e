/**
 * Signing up: validate the form, hash the password (argon2id), and create the account with its
 * store, owner and first API key in one transaction (createAccount).
 */
import type { Deps } from "../../../deps.js";
import { AppError } from "../../../http/errors.js";
import { createAccount } from "../../accounts/create-account.js";
import { hashPassword, MIN_PASSWORD_LENGTH } from "../../accounts/password.js";
import { checkEmail } from "../../orders/email-address.js";
import { MAX_PASSWORD_LENGTH } from "./log-in.js";
import { recordAttempt, signUpThrottle, throttledFor } from "./login-throttle.js";

export interface SignUpInput {
  storeName: string;
  email: string;
  password: string;
  ip: string;
}

export type SignUpField = "storeName" | "email" | "password";

export type SignUpResult =
  | { kind: "ok"; userId: string; accountId: string; keyId: string; apiKey: string }
  | { kind: "invalid"; errors: Partial<Record<SignUpField, string>> }
  | { kind: "taken" }
  | { kind: "throttled"; retryAfterMs: number };

export function validateSignUp(input: SignUpInput): Partial<Record<SignUpField, string>> {
  const errors: Partial<Record<SignUpField, string>> = {};
  const name = input.storeName.trim();
  if (name === "") errors.storeName = "Enter your store's name.";
  else if (name.length > 100) errors.storeName = "Use at most 100 characters.";
  if (checkEmail(input.email) === "invalid")
    errors.email = "Enter a valid e-mail address, like you@example.com.";
  if (input.password.length < MIN_PASSWORD_LENGTH) {
    errors.password = `Use at least ${MIN_PASSWORD_LENGTH} characters.`;
  } else if (input.password.length > MAX_PASSWORD_LENGTH) {
    errors.password = `Use at most ${MAX_PASSWORD_LENGTH} characters.`;
  }
  return errors;
}

export async function signUp(
  deps: Pick<Deps, "db" | "clock">,
  input: SignUpInput,
): Promise<SignUpResult> {
  const errors = validateSignUp(input);
  if (Object.keys(errors).length > 0) return { kind: "invalid", errors };
  const db = deps.db.kysely;
  const throttle = [signUpThrottle(input.ip)];
  const wait = await throttledFor(db, throttle, deps.clock.now());
  if (wait > 0) return { kind: "throttled", retryAfterMs: wait };
  await recordAttempt(db, throttle, deps.clock.now());

  const passwordHash = await hashPassword(input.password);
  try {
    const created = await createAccount(
      db,
      { name: input.storeName.trim(), ownerEmail: input.email, passwordHash },
      deps.clock.now(),
    );
    return { kind: "ok", ...created };
  } catch (error) {
    if (error instanceof AppError && error.code === "conflict") return { kind: "taken" };
    throw error;
  }
}
