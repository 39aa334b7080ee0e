/**
 * Login throttling on the `login_attempts` table, so it holds across processes: at most 5
 * failed sign-ins per e-mail address and 30 per client address in any 15 minutes. The e-mail
 * key is throttled whether or not an account exists, so throttling reveals nothing either.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";
import { newId } from "../../../lib/ids.js";

export const LOGIN_WINDOW_MS = 15 * 60_000;

export interface ThrottleKey {
  key: string;
  limit: number;
}

export const emailThrottle = (emailNormalized: string): ThrottleKey => ({
  key: `email:${emailNormalized}`,
  limit: 5,
});
export const ipThrottle = (ip: string): ThrottleKey => ({ key: `ip:${ip}`, limit: 30 });
/** Sign-ups cost an argon2 hash each: at most 20 per client address per window. */
export const signUpThrottle = (ip: string): ThrottleKey => ({ key: `signup:${ip}`, limit: 20 });

/** Milliseconds until the busiest key allows another attempt; 0 when none is over its limit. */
export async function throttledFor(
  db: Kysely<Database>,
  keys: ThrottleKey[],
  now: number,
): Promise<number> {
  let wait = 0;
  for (const { key, limit } of keys) {
    const recent = await db
      .selectFrom("login_attempts")
      .select("attempted_at")
      .where("key", "=", key)
      .where("attempted_at", ">", now - LOGIN_WINDOW_MS)
      .orderBy("attempted_at", "desc")
      .limit(limit)
      .execute();
    const oldestCounted = recent[limit - 1];
    // Over the limit until the limit-th most recent attempt leaves the window.
    if (oldestCounted) wait = Math.max(wait, oldestCounted.attempted_at + LOGIN_WINDOW_MS - now);
  }
  return wait;
}

/** Records a counted attempt under each key and drops that key's rows older than the window. */
export async function recordAttempt(
  db: Kysely<Database>,
  keys: ThrottleKey[],
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const { key } of keys) {
      await trx
        .deleteFrom("login_attempts")
        .where("key", "=", key)
        .where("attempted_at", "<=", now - LOGIN_WINDOW_MS)
        .execute();
      await trx
        .insertInto("login_attempts")
        .values({ id: newId(now), key, attempted_at: now, succeeded: 0 })
        .execute();
    }
  });
}

/** A successful sign-in forgives that e-mail's earlier failures (not the address's). */
export async function clearAttempts(db: Kysely<Database>, key: ThrottleKey): Promise<void> {
  await db.deleteFrom("login_attempts").where("key", "=", key.key).execute();
}
