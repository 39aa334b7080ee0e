/**
 * Open sign-up (SIGNUP=open): nothing is created until the address proves it is the signer's.
 * A free address gets a link (single use, 24 hours) that creates the account; a taken address
 * gets a note that someone tried to sign up with it. The visitor sees the same "check your
 * inbox" answer either way, after the same work (one argon2 hash, one e-mail), so sign-up does
 * not tell who has an account.
 */

import type { Deps } from "../../../deps.js";
import type { AlertsDeps } from "../../alerts/alert-deps.js";
import { buildPlainEmail } from "../../alerts/plain-email.js";
import { normalizeEmail } from "../../orders/email-address.js";
import { newOneTimeToken } from "../../security/one-time-token.js";

export const SIGNUP_LINK_TTL_MS = 24 * 3600_000;

export async function requestSignUp(
  deps: Pick<Deps, "db" | "clock" | "config" | "log"> & AlertsDeps,
  input: { email: string; storeName: string; passwordHash: string },
): Promise<void> {
  const db = deps.db.kysely;
  const now = deps.clock.now();
  const { from } = deps.config.alerts;
  const base = deps.config.publicBaseUrl;
  const taken = await db
    .selectFrom("users")
    .select("email")
    .where("email_normalized", "=", normalizeEmail(input.email))
    .executeTakeFirst();
  let message: ReturnType<typeof buildPlainEmail>;
  if (taken) {
    message = buildPlainEmail({
      from,
      to: taken.email,
      subject: "Someone tried to sign up to Velvet with your address",
      paragraphs: [
        "Someone tried to create a new Velvet account with this e-mail address, which already has an account. Nothing was changed.",
        "If it was you, log in instead. If it was not, you can ignore this message.",
      ],
      link: { url: `${base}/login`, label: "Log in to Velvet" },
    });
  } else {
    const token = newOneTimeToken();
    await db
      .insertInto("signup_requests")
      .values({
        token_hash: token.hash,
        email: input.email,
        store_name: input.storeName,
        password_hash: input.passwordHash,
        created_at: now,
        expires_at: now + SIGNUP_LINK_TTL_MS,
        used_at: null,
      })
      .execute();
    message = buildPlainEmail({
      from,
      to: input.email,
      subject: "Confirm your e-mail address to finish signing up to Velvet",
      paragraphs: [
        "Someone, hopefully you, signed up to Velvet with this e-mail address.",
        "Open the link below within 24 hours to create the account. If it was not you, ignore this message: no account is created.",
      ],
      link: {
        url: `${base}/signup/confirm?token=${token.raw}`,
        label: "Confirm and create the account",
      },
    });
  }
  const sent = await deps.alerts.sendMail(message);
  if (sent.outcome !== "delivered")
    deps.log.error({ error: sent.error }, "sign-up e-mail could not be sent");
}
