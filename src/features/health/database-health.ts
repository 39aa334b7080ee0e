/**
 * Whether this process can write to its database, as GET /readyz and the API's 503s see it.
 *
 * - The write probe rewrites one row of `readiness_probe`: on a full SQLite disk a `select 1`
 *   still answers while every write fails (the WAL cannot grow), so only a write tells, and
 *   one big enough to need new room (SQLITE_PROBE_BYTES below).
 * - Rate-limited: at most one probe per PROBE_INTERVAL_MS per process; /readyz between probes
 *   uses the cached result, so a balancer probing every second costs one write every few
 *   seconds. The migration table is read on every call (a read, as cheap as `select 1`).
 * - A request that failed because the database is away (http/app.ts) marks it failing at once,
 *   without waiting for the next probe; while failing, the probe runs every PROBE_INTERVAL_MS on
 *   its own, and the first probe that succeeds turns it green again.
 * - Logged once per change of state (error when writes start failing, info when they work
 *   again), never once per failed request or probe.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { Db } from "../../db/connect.js";
import { isDatabaseUnavailable } from "../../db/errors.js";
import { pendingMigrations } from "../../db/migrate.js";

export const PROBE_INTERVAL_MS = 2_000;
/** A probe that takes longer counts as failed: a hung database is not a ready one. */
export const PROBE_TIMEOUT_MS = 2_000;

export type Readiness =
  | { ready: true }
  | {
      ready: false;
      reason: "shutting_down" | "database_unavailable" | "migrations_pending";
      detail?: string;
    };

export interface DatabaseHealth {
  /** The readiness of the last probe, probing first when it is older than the interval. */
  readiness(): Promise<Readiness>;
  /** A request found the database unavailable: red until a probe succeeds. */
  failed(error: unknown): void;
  close(): void;
}

export interface DatabaseHealthOptions {
  db: Db;
  log: Logger;
  /** Monotonic milliseconds (default performance.now). */
  now?: () => number;
  intervalMs?: number;
  timeoutMs?: number;
}

export function createDatabaseHealth(options: DatabaseHealthOptions): DatabaseHealth {
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? PROBE_INTERVAL_MS;
  const timeoutMs = options.timeoutMs ?? PROBE_TIMEOUT_MS;
  /** The last write probe's result: null when it succeeded, else why it failed. */
  let last: { at: number; failure: Readiness | null } | null = null;
  let inFlight: Promise<Readiness | null> | null = null;
  let failing = false;
  let timer: NodeJS.Timeout | null = null;
  let closed = false;

  function markFailing(detail: string, err?: unknown): void {
    if (!failing) {
      failing = true;
      options.log.error(
        { err, detail },
        "database unavailable: writes fail; /readyz is red and the API answers 503 until a write succeeds",
      );
    }
    if (timer === null && !closed) {
      timer = setInterval(() => void probe(), intervalMs);
      timer.unref();
    }
  }

  function markWorking(): void {
    if (timer !== null) clearInterval(timer);
    timer = null;
    if (!failing) return;
    failing = false;
    options.log.info("database available again: writes succeed");
  }

  function probe(): Promise<Readiness | null> {
    inFlight ??= probeOnce().finally(() => {
      inFlight = null;
    });
    return inFlight;
  }

  async function probeOnce(): Promise<Readiness | null> {
    let failure: Readiness | null = null;
    try {
      await withTimeout(writeProbe(options.db), timeoutMs);
      markWorking();
    } catch (error) {
      // A schema older than this build (no probe table yet) is not an outage.
      const behind = isDatabaseUnavailable(error) ? null : await migrationsBehind(options.db);
      if (behind !== null) failure = behind;
      else {
        const detail = error instanceof Error ? error.message : String(error);
        markFailing(detail, error);
        failure = { ready: false, reason: "database_unavailable", detail };
      }
    }
    last = { at: now(), failure };
    return failure;
  }

  return {
    async readiness() {
      const fresh = last !== null && now() - last.at < intervalMs;
      const failure = fresh && last !== null ? last.failure : await probe();
      if (failure !== null) return failure;
      // A read of the migration table on every call: a deploy's pending migration shows at once.
      return (await migrationsBehind(options.db)) ?? { ready: true };
    },
    failed(error) {
      const detail = error instanceof Error ? error.message : String(error);
      last = { at: now(), failure: { ready: false, reason: "database_unavailable", detail } };
      markFailing(detail, error);
    },
    close() {
      closed = true;
      if (timer !== null) clearInterval(timer);
      timer = null;
    },
  };
}

async function migrationsBehind(db: Db): Promise<Readiness | null> {
  const pending = await pendingMigrations(db.kysely).catch(() => null);
  if (pending === null)
    return { ready: false, reason: "migrations_pending", detail: "no migration table" };
  if (pending.length > 0)
    return { ready: false, reason: "migrations_pending", detail: pending.join(", ") };
  return null;
}

/**
 * On SQLite, what the probe writes must need fresh room on disk. A small write can succeed on a
 * full disk: a transaction that failed for want of space leaves the WAL file longer than its
 * valid frames, and the next commit reuses that slack. An order's transaction dirties some 20
 * pages (80 KB); 256 KB of new text (64 WAL frames) is more than any such slack, so the probe
 * fails as soon as the WAL cannot grow. PostgreSQL preallocates its WAL and stops (connections
 * fail) when it cannot write it, so there a one-row write is enough.
 */
export const SQLITE_PROBE_BYTES = 256 * 1024;

async function writeProbe(db: Db): Promise<void> {
  const ballast =
    db.dialect === "sqlite" ? randomBytes(SQLITE_PROBE_BYTES / 2).toString("hex") : null;
  await db.kysely
    .insertInto("readiness_probe")
    .values({ id: 1, probed_at: Date.now(), ballast })
    .onConflict((oc) =>
      oc.column("id").doUpdateSet({
        probed_at: (eb) => eb.ref("excluded.probed_at"),
        ballast: (eb) => eb.ref("excluded.ballast"),
      }),
    )
    .execute();
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the write probe took longer than ${ms} ms`)), ms);
  });
  // A probe that loses the race still settles later; its result is not wanted.
  work.catch(() => {});
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}
