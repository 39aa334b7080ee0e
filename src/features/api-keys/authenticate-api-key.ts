/**
 * Resolves an API key to its store and its account's rate limit, on every request: nothing kept
 * past the event-loop turn that read it (find-live-keys.ts), so a revocation (or a new limit)
 * applies from the next request on, on every node. A malformed key
 * never reaches the database. Looking a key up writes nothing: `recordKeyUse` is called once the
 * request is admitted (after the rate limit), so a refused request writes nothing at all.
 */
import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { findLiveKeyByHash } from "./find-live-keys.js";
import { hashApiKey, isWellFormedApiKey } from "./key-format.js";

/** last_used_at is written at most once a minute per key, keeping writes off the hot path. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface AuthenticatedKey extends StoreRef {
  keyId: string;
  /** The account's own limit per key (null: the configured default; 0: none). */
  rateLimitPerMinute: number | null;
  lastUsedAt: number | null;
}

export async function authenticateApiKey(
  deps: Pick<Deps, "db" | "clock">,
  key: string | null,
): Promise<AuthenticatedKey | null> {
  if (key === null || !isWellFormedApiKey(key)) return null;
  const row = await findLiveKeyByHash(deps.db, hashApiKey(key));
  if (!row) return null;
  return {
    keyId: row.id,
    storeId: row.store_id,
    accountId: row.account_id,
    rateLimitPerMinute: row.api_rate_limit_per_minute,
    lastUsedAt: row.last_used_at,
  };
}

/** Marks the key as used: at most one write a minute per key. */
export async function recordKeyUse(
  deps: Pick<Deps, "db" | "clock">,
  key: AuthenticatedKey,
): Promise<void> {
  const now = deps.clock.now();
  if (key.lastUsedAt !== null && key.lastUsedAt >= now - LAST_USED_RESOLUTION_MS) return;
  // The intake's own connections (find-live-keys.ts says why), so that once a minute a request
  // does not wait behind the worker's queries for the shared pool.
  await deps.db.indexed
    .updateTable("api_keys")
    .set({ last_used_at: now })
    .where("id", "=", key.keyId)
    .execute();
}
