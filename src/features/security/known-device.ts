/**
 * Known devices, after OWASP's "Slow Down Online Guessing Attacks with Device Cookies": a
 * browser that signed in as a user gets a device cookie, and what it asks for in that user's
 * name is counted on the device's own budget instead of the budget strangers share. Velvet
 * uses it for password-reset requests, which anyone may send for any address: without it, five
 * requests from elsewhere would make the user's own request wait 15 minutes.
 *
 * OWASP's cookie is "login, nonce, HMAC(server key)"; here the cookie is 32 random bytes and
 * the database keeps their SHA-256 with the user, which is as unforgeable, needs no key to
 * configure, and goes with the user (removal, closing the account). The cookie names nobody.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { hashOneTimeToken, isWellFormedToken, newOneTimeToken } from "./one-time-token.js";

export const DEVICE_COOKIE = "velvet_device";
export const DEVICE_TTL_MS = 365 * 24 * 3600_000;

/**
 * At a successful sign-in: keeps the browser's device token when it is already this user's
 * (extending it), otherwise issues a new one. Returns the token for the cookie.
 */
export async function rememberDevice(
  db: Kysely<Database>,
  userId: string,
  presented: string | undefined,
  now: number,
): Promise<string> {
  if (presented !== undefined && isWellFormedToken(presented)) {
    const kept = await db
      .updateTable("known_devices")
      .set({ expires_at: now + DEVICE_TTL_MS })
      .where("token_hash", "=", hashOneTimeToken(presented))
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (Number(kept.numUpdatedRows) > 0) return presented;
  }
  const token = newOneTimeToken();
  await db.deleteFrom("known_devices").where("expires_at", "<=", now).execute();
  await db
    .insertInto("known_devices")
    .values({
      token_hash: token.hash,
      user_id: userId,
      created_at: now,
      expires_at: now + DEVICE_TTL_MS,
    })
    .execute();
  return token.raw;
}

/**
 * The device's id (its token hash) when `presented` is a live device token of the user with
 * this normalised e-mail; null otherwise (no cookie, another user's, expired, forged).
 */
export async function knownDeviceFor(
  db: Kysely<Database>,
  presented: string | undefined,
  emailNormalized: string,
  now: number,
): Promise<string | null> {
  if (presented === undefined || !isWellFormedToken(presented)) return null;
  const hash = hashOneTimeToken(presented);
  const row = await db
    .selectFrom("known_devices")
    .innerJoin("users", "users.id", "known_devices.user_id")
    .select("known_devices.token_hash")
    .where("known_devices.token_hash", "=", hash)
    .where("known_devices.expires_at", ">", now)
    .where("users.email_normalized", "=", emailNormalized)
    .executeTakeFirst();
  return row ? row.token_hash : null;
}
