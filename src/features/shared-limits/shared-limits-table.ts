/**
 * The `shared_limits` table (migration 0028): budgets every process on the database shares. Each
 * function is one statement (an upsert with RETURNING), so two processes asking at once are
 * serialised by the row, never by a lock in memory.
 *
 * Glossary:
 * - slot: one permitted call at one instant. A name's row holds `next_at`, the next free slot;
 *   consecutive slots are `intervalMs` apart, so however many processes ask, calls on a name
 *   are never closer than the interval (GCRA: the "theoretical arrival time" of the next call).
 * - slot lease: `n` consecutive slots handed to one process at once, spent by it locally.
 * - window: a fixed stretch (one minute) with a count of requests leased in it; it starts with
 *   the first request after the previous one ended.
 * - window lease: `k` requests of a window handed to one process, spent by it in memory.
 *
 * The three statements a caller waits on (take, defer, window lease) run on `db.indexed`: on
 * PostgreSQL the few connections of their own that the order intake uses (db/connect.ts), not
 * the pool the worker's jobs queue for. A lease is asked while a provider call or an API request
 * waits for it. Measured in the stalls bench on PostgreSQL (300 new customers a second), a lease
 * queued behind the enrichment results on the jobs' pool came back in up to 730 ms (the median
 * of a second's leases up to 150 ms), holding every call of its provider meanwhile; on the
 * intake's connections, in at most 22 ms.
 *
 * Instants are the asking process's wall clock (epoch ms): processes on several machines need
 * their clocks in step (NTP), as a skew of x ms moves their slots by x ms.
 */
import { sql } from "kysely";
import type { Db } from "../../db/connect.js";

export type SlotGrant =
  /** The lease's first slot; the others follow every `intervalMs`. */
  | { ok: true; firstAt: number }
  /** Refused: the next free slot is further away than the caller would wait. */
  | { ok: false; nextAt: number };

export interface SlotAsk {
  name: string;
  /** Slots wanted (at least 1). */
  n: number;
  intervalMs: number;
  /** The caller takes nothing whose first slot is further away than this. */
  maxWaitMs: number;
  now: number;
}

/** Functions of two arguments whose names differ between the engines. */
function fns(db: Db) {
  return db.dialect === "postgres"
    ? { max: sql.raw("greatest"), min: sql.raw("least") }
    : { max: sql.raw("max"), min: sql.raw("min") };
}

/** Hands out `n` consecutive slots from the name's next free one, or says when that one is. */
export async function takeSlots(db: Db, ask: SlotAsk): Promise<SlotGrant> {
  const { max } = fns(db);
  const now = Math.floor(ask.now);
  // The lease's whole length, rounded up to the column's whole milliseconds (not each slot's:
  // at a million a minute a slot is 0.06 ms, and rounding each would cut the rate 16-fold).
  const span = Math.max(1, Math.ceil(Math.max(1, Math.floor(ask.n)) * ask.intervalMs));
  const ceiling = now + Math.max(0, Math.floor(ask.maxWaitMs));
  const free = sql`${max}(shared_limits.next_at, ${now})`;
  const fits = sql`${free} <= ${ceiling}`;
  const { rows } = await sql<{ next_at: number; granted_at: number }>`
    insert into shared_limits (name, next_at, granted_at, expires_at)
    values (${ask.name}, ${now + span}, ${now}, ${now + span})
    on conflict (name) do update set
      next_at = case when ${fits} then ${free} + ${span} else shared_limits.next_at end,
      granted_at = case when ${fits} then ${free} else -1 end,
      expires_at = case when ${fits} then ${free} + ${span} else shared_limits.next_at end
    returning next_at, granted_at`.execute(db.indexed);
  const row = rows[0];
  if (row === undefined) throw new Error("shared_limits upsert returned no row");
  const grantedAt = Number(row.granted_at);
  return grantedAt >= 0
    ? { ok: true, firstAt: grantedAt }
    : { ok: false, nextAt: Number(row.next_at) };
}

/** No slot of `name` before `until` (a 429's Retry-After, for every process). */
export async function deferSlots(db: Db, name: string, until: number): Promise<void> {
  const { max } = fns(db);
  const at = Math.ceil(until);
  await sql`
    insert into shared_limits (name, next_at, granted_at, expires_at)
    values (${name}, ${at}, -1, ${at})
    on conflict (name) do update set
      next_at = ${max}(shared_limits.next_at, ${at}),
      expires_at = ${max}(shared_limits.expires_at, ${at})`.execute(db.indexed);
}

export interface WindowAsk {
  name: string;
  /** Requests wanted for this process (at least 1). */
  want: number;
  /** Requests per window for all processes together. */
  limit: number;
  windowMs: number;
  now: number;
}

export interface WindowLease {
  /** Requests this process may answer in the window (0: the window is spent). */
  granted: number;
  /** Requests leased in the window so far, by every process, this lease included. */
  used: number;
  windowEndsAt: number;
}

/**
 * Leases up to `want` requests of the name's current window (starting a new window when the
 * last one has ended), never more than `limit` in all.
 */
export async function takeWindowLease(db: Db, ask: WindowAsk): Promise<WindowLease> {
  const { max, min } = fns(db);
  const now = Math.floor(ask.now);
  const ends = now + ask.windowMs;
  const want = Math.max(1, Math.floor(ask.want));
  const limit = Math.max(0, Math.floor(ask.limit));
  const first = Math.min(want, limit);
  const ended = sql`shared_limits.window_ends_at <= ${now}`;
  const more = sql`${max}(0, ${min}(${want}, ${limit} - shared_limits.used))`;
  const { rows } = await sql<{ window_ends_at: number; used: number; granted: number }>`
    insert into shared_limits (name, window_ends_at, used, granted, expires_at)
    values (${ask.name}, ${ends}, ${first}, ${first}, ${ends})
    on conflict (name) do update set
      window_ends_at = case when ${ended} then ${ends} else shared_limits.window_ends_at end,
      used = case when ${ended} then ${first} else shared_limits.used + ${more} end,
      granted = case when ${ended} then ${first} else ${more} end,
      expires_at = case when ${ended} then ${ends} else shared_limits.window_ends_at end
    returning window_ends_at, used, granted`.execute(db.indexed);
  const row = rows[0];
  if (row === undefined) throw new Error("shared_limits upsert returned no row");
  return {
    granted: Number(row.granted),
    used: Number(row.used),
    windowEndsAt: Number(row.window_ends_at),
  };
}

/** Deletes rows that stopped mattering before `before`; the table holds only live budgets. */
export async function sweepSharedLimits(db: Db, before: number): Promise<number> {
  const result = await db.kysely
    .deleteFrom("shared_limits")
    .where("expires_at", "<", Math.floor(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
