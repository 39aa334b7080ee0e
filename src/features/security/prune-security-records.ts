/**
 * Pruning what the doors leave behind: throttle attempts and locks older than a day, and used or
 * expired sign-up links. Runs at a bounded cadence instead of on a timer: `reserveAuthAttempt` calls
 * it after every reservation, and one conditional update on a marker row lets at most one call
 * per PRUNE_EVERY_MS do the work, across all processes. The tables grow only through attempts,
 * so pruning on attempts keeps them bounded; an idle server has nothing to prune.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export const PRUNE_EVERY_MS = 10 * 60_000;
export const KEEP_ATTEMPTS_MS = 24 * 3600_000;
const MARKER = "prune:last-run";

export async function pruneSecurityRecords(db: Kysely<Database>, now: number): Promise<boolean> {
  await db
    .insertInto("throttle_locks")
    .values({ key: MARKER, touched_at: 0 })
    .onConflict((oc) => oc.column("key").doNothing())
    .execute();
  const claimed = await db
    .updateTable("throttle_locks")
    .set({ touched_at: now })
    .where("key", "=", MARKER)
    .where("touched_at", "<=", now - PRUNE_EVERY_MS)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) return false;
  const before = now - KEEP_ATTEMPTS_MS;
  await db.deleteFrom("auth_attempts").where("attempted_at", "<", before).execute();
  await db
    .deleteFrom("throttle_locks")
    .where("touched_at", "<", before)
    .where("key", "!=", MARKER)
    .execute();
  await db
    .deleteFrom("signup_requests")
    .where((eb) => eb.or([eb("expires_at", "<", now), eb("used_at", "is not", null)]))
    .execute();
  return true;
}
