/**
 * Throttling log-ins and sign-ups so that it holds under concurrency, on both engines and on any
 * number of processes.
 *
 * Glossary:
 * - attempt: one row in `auth_attempts`, written *before* the password is checked (reserved,
 *   state `pending`) and settled afterwards (`failed` or `succeeded`). A pending attempt counts
 *   like a failure, so a burst cannot check more passwords than the limit allows.
 * - lock: the reserving transaction first upserts one `throttle_locks` row for the e-mail and one
 *   for the client address (always in that order, so two transactions never wait on each other
 *   in a cycle). On PostgreSQL the upsert holds a row lock until commit; on SQLite the
 *   transaction holds the write lock. Either way concurrent reservations for the same e-mail or
 *   address count one after another, each seeing the previous one's row.
 * - hard limit: a refusal (429) until old attempts leave the window. Keyed on (e-mail, address)
 *   and on the address, never on the e-mail alone for log-in, so a stranger elsewhere cannot
 *   lock the owner out.
 * - delay: once an e-mail has failed `delayAfter` times in the window (from anywhere), each
 *   further attempt for it waits before its password is checked, doubling up to MAX_DELAY_MS.
 * - in flight: pending attempts younger than STALE_PENDING_MS; at most a few per e-mail and per
 *   address are checked at once (a pending row left by a crashed process stops counting as in
 *   flight, but still counts against the limits until it leaves the window).
 */
import type { Kysely } from "kysely";
import type { AuthAction, Database } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { pruneSecurityRecords } from "./prune-security-records.js";

export interface ThrottlePolicy {
  action: AuthAction;
  windowMs: number;
  /** Attempts per (e-mail, client address) in the window. */
  perEmailAndIp: number;
  /** Attempts per client address in the window, across e-mails. */
  perIp: number;
  /** Attempts per e-mail alone (from anywhere); null for none (log-in: the delay instead). */
  perEmail: number | null;
  /** Failures of the e-mail after which each attempt waits; null for no delay. */
  delayAfter: number | null;
  /** Whether successful attempts count too (sign-up: each costs a hash and an e-mail). */
  countSuccesses: boolean;
  maxInFlightPerEmail: number;
  maxInFlightPerIp: number;
}

export const THROTTLE_WINDOW_MS = 15 * 60_000;
export const STALE_PENDING_MS = 60_000;
export const FIRST_DELAY_MS = 500;
export const MAX_DELAY_MS = 8_000;
/** How long an over-busy e-mail or address is asked to wait. */
const BUSY_RETRY_MS = 1_000;

export const LOGIN_POLICY: ThrottlePolicy = {
  action: "login",
  windowMs: THROTTLE_WINDOW_MS,
  perEmailAndIp: 5,
  perIp: 30,
  perEmail: null,
  delayAfter: 5,
  countSuccesses: false,
  maxInFlightPerEmail: 2,
  maxInFlightPerIp: 4,
};

export const SIGNUP_POLICY: ThrottlePolicy = {
  action: "signup",
  windowMs: THROTTLE_WINDOW_MS,
  perEmailAndIp: 3,
  perIp: 20,
  perEmail: 5,
  delayAfter: null,
  countSuccesses: true,
  maxInFlightPerEmail: 1,
  maxInFlightPerIp: 4,
};

export type Reservation =
  | { kind: "reserved"; attemptId: string; action: AuthAction; email: string; delayMs: number }
  | { kind: "throttled"; retryAfterMs: number };

interface Row {
  email: string;
  ip: string;
  attempted_at: number;
  state: string;
  email_forgiven: number;
}

export async function reserveAuthAttempt(
  db: Kysely<Database>,
  policy: ThrottlePolicy,
  who: { email: string; ip: string },
  now: number,
): Promise<Reservation> {
  const { action, windowMs } = policy;
  const reservation = await db.transaction().execute(async (trx): Promise<Reservation> => {
    for (const key of [`${action}:email:${who.email}`, `${action}:ip:${who.ip}`]) {
      await trx
        .insertInto("throttle_locks")
        .values({ key, touched_at: now })
        .onConflict((oc) => oc.column("key").doUpdateSet({ touched_at: now }))
        .execute();
    }
    let query = trx
      .selectFrom("auth_attempts")
      .select(["email", "ip", "attempted_at", "state", "email_forgiven"])
      .where("action", "=", action)
      .where("attempted_at", ">", now - windowMs)
      .where((eb) => eb.or([eb("email", "=", who.email), eb("ip", "=", who.ip)]));
    if (!policy.countSuccesses) query = query.where("state", "!=", "succeeded");
    const rows: Row[] = await query.execute();

    const byEmail = rows.filter((r) => r.email === who.email && r.email_forgiven === 0);
    const pair = byEmail.filter((r) => r.ip === who.ip);
    const byIp = rows.filter((r) => r.ip === who.ip);
    const wait = Math.max(
      overLimit(pair, policy.perEmailAndIp, windowMs, now),
      overLimit(byIp, policy.perIp, windowMs, now),
      policy.perEmail === null ? 0 : overLimit(byEmail, policy.perEmail, windowMs, now),
    );
    if (wait > 0) return { kind: "throttled", retryAfterMs: wait };
    const inFlight = (list: Row[]) =>
      list.filter((r) => r.state === "pending" && r.attempted_at > now - STALE_PENDING_MS).length;
    if (
      inFlight(rows.filter((r) => r.email === who.email)) >= policy.maxInFlightPerEmail ||
      inFlight(byIp) >= policy.maxInFlightPerIp
    ) {
      return { kind: "throttled", retryAfterMs: BUSY_RETRY_MS };
    }

    const attemptId = newId(now);
    await trx
      .insertInto("auth_attempts")
      .values({
        id: attemptId,
        action,
        email: who.email,
        ip: who.ip,
        attempted_at: now,
        state: "pending",
      })
      .execute();
    const failures = byEmail.filter((r) => r.state !== "succeeded").length;
    const delayMs = delayFor(policy, failures);
    return { kind: "reserved", attemptId, action, email: who.email, delayMs };
  });
  await pruneSecurityRecords(db, now);
  return reservation;
}

/** Settles a reserved attempt; a successful log-in forgives the e-mail's earlier failures. */
export async function settleAuthAttempt(
  db: Kysely<Database>,
  reservation: { attemptId: string; email: string; action: AuthAction },
  outcome: "failed" | "succeeded",
  options: { forgiveEmail?: boolean } = {},
): Promise<void> {
  await db
    .updateTable("auth_attempts")
    .set({ state: outcome })
    .where("id", "=", reservation.attemptId)
    .execute();
  if (outcome === "succeeded" && options.forgiveEmail) {
    await db
      .updateTable("auth_attempts")
      .set({ email_forgiven: 1 })
      .where("action", "=", reservation.action)
      .where("email", "=", reservation.email)
      .where("state", "=", "failed")
      .execute();
  }
}

/** The wait before the e-mail's next attempt is checked: 0 below `delayAfter` failures. */
export function delayFor(policy: ThrottlePolicy, failures: number): number {
  if (policy.delayAfter === null || failures < policy.delayAfter) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failures - policy.delayAfter, 16));
}

/** Milliseconds until fewer than `limit` of these attempts are in the window; 0 if already. */
function overLimit(rows: Row[], limit: number, windowMs: number, now: number): number {
  if (rows.length < limit) return 0;
  const times = rows.map((r) => r.attempted_at).sort((a, b) => b - a);
  const oldestCounted = times[limit - 1] ?? now;
  return Math.max(1000, oldestCounted + windowMs - now);
}
