/**
 * The link from an open sign-up: used once, within 24 hours, it creates the account (store,
 * owner, first key) with the name and password given at sign-up. The link is claimed by one
 * conditional update before anything is created, so a link opened twice at once creates one
 * account.
 */
import type { Deps } from "../../../deps.js";
import { AppError } from "../../../lib/app-error.js";
import { type CreatedAccount, createAccount } from "../../accounts/create-account.js";
import { hashOneTimeToken, isWellFormedToken } from "../../security/one-time-token.js";

export type ConfirmSignUpResult =
  | ({ kind: "ok" } & CreatedAccount)
  | { kind: "invalid" }
  | { kind: "taken" };

export async function confirmSignUp(
  deps: Pick<Deps, "db" | "clock">,
  rawToken: string,
): Promise<ConfirmSignUpResult> {
  if (!isWellFormedToken(rawToken)) return { kind: "invalid" };
  const now = deps.clock.now();
  const db = deps.db.kysely;
  const request = await db
    .updateTable("signup_requests")
    .set({ used_at: now })
    .where("token_hash", "=", hashOneTimeToken(rawToken))
    .where("used_at", "is", null)
    .where("expires_at", ">", now)
    .returning(["email", "store_name", "password_hash"])
    .executeTakeFirst();
  if (!request) return { kind: "invalid" };
  try {
    const created = await createAccount(
      db,
      { name: request.store_name, ownerEmail: request.email, passwordHash: request.password_hash },
      now,
    );
    return { kind: "ok", ...created };
  } catch (error) {
    // Two pending sign-ups for one address: the first confirmed wins.
    if (error instanceof AppError && error.code === "conflict") return { kind: "taken" };
    throw error;
  }
}
