/**
 * Wake-ups across processes on PostgreSQL, with LISTEN/NOTIFY.
 *
 * Sending: after a commit that enqueued jobs, the process sends `select pg_notify(channel, '')`
 * on its pool, coalesced (at most one in flight and one more pending, at least `minGapMs` apart),
 * fire-and-forget: a lost notification costs a poll interval, as polling still finds the job.
 * Not a NOTIFY inside the enqueuing transaction: a notifying transaction takes a cluster-wide
 * heavyweight lock in PreCommit_Notify() and holds it until its commit is complete (WAL flush
 * included), so only one notifying transaction commits at a time (PostgreSQL source,
 * src/backend/commands/async.c, as described in the pgsql-hackers patch "Allow NOTIFY without
 * cross-transaction commit ordering", postgresql.org/message-id/attachment/209985): at thousands
 * of orders a second that would serialise order intake's commits.
 *
 * Listening: one dedicated connection per worker process (a pg.Client, not a pooled one: a
 * LISTEN belongs to its session, and a transaction-mode pooler hands sessions around, so the
 * caller passes a direct connection string). When it drops it reconnects with backoff; while
 * down the worker polls at its normal interval (`healthy` is false), and once back it rings once
 * for whatever was enqueued meanwhile.
 */
import { type Kysely, sql } from "kysely";
import pg from "pg";
import type { Logger } from "pino";
import type { Database } from "../db/schema.js";

export const WAKEUP_CHANNEL = "velvet_jobs";

export interface CoalescedSender {
  /** Ask for a send: coalesced with any already scheduled. */
  request(): void;
  /** Stops sending; waits for a send in flight. */
  close(): Promise<void>;
}

export function coalescedSender(
  send: () => Promise<unknown>,
  minGapMs: number,
  log: Logger,
): CoalescedSender {
  /** "scheduled": a send is due and will cover every request made before it starts. */
  let state: "idle" | "scheduled" | "sending" = "idle";
  let pending = false;
  let closed = false;
  let lastAt = Number.NEGATIVE_INFINITY;
  let current: Promise<void> = Promise.resolve();

  function schedule(): void {
    state = "scheduled";
    const waitMs = Math.max(0, lastAt + minGapMs - performance.now());
    current = new Promise<void>((resolve) => setTimeout(resolve, waitMs))
      .then(async () => {
        if (closed) return;
        state = "sending";
        lastAt = performance.now();
        await send();
      })
      .catch((error: unknown) => log.debug({ err: error }, "sending a job wake-up failed"))
      .finally(() => {
        state = "idle";
        if (pending && !closed) {
          pending = false;
          schedule();
        }
      });
  }

  return {
    request() {
      if (closed || state === "scheduled") return;
      if (state === "sending") pending = true;
      else schedule();
    },
    async close() {
      closed = true;
      await current;
    },
  };
}

export interface WakeupListener {
  /** True while the LISTEN connection is up: notifications arrive. */
  readonly healthy: boolean;
  close(): Promise<void>;
}

export interface ListenOptions {
  connectionString: string;
  onWake: () => void;
  log: Logger;
  channel?: string;
  minBackoffMs?: number;
  maxBackoffMs?: number;
}

export function listenForWakeups(options: ListenOptions): WakeupListener {
  const { connectionString, onWake, log } = options;
  const channel = options.channel ?? WAKEUP_CHANNEL;
  const minBackoffMs = options.minBackoffMs ?? 250;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  let healthy = false;
  let closed = false;
  let failing = false;
  let backoffMs = minBackoffMs;
  /** The session's client, and the way to cut a backoff sleep short (for close()). */
  const live: { client: pg.Client | null; wake: (() => void) | null } = {
    client: null,
    wake: null,
  };

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      live.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      live.wake = null;
    });

  /** One session: resolves when the connection ends, rejects when it cannot start. */
  async function session(): Promise<void> {
    const c = new pg.Client({
      connectionString,
      keepAlive: true,
      application_name: "velvet-wakeups",
    });
    live.client = c;
    const ended = new Promise<void>((resolve) => {
      c.on("end", resolve);
      c.on("error", (error) => {
        log.debug({ err: error }, "the job wake-up connection failed");
        resolve();
      });
    });
    c.on("notification", () => onWake());
    await c.connect();
    await c.query(`listen ${channel}`);
    healthy = true;
    backoffMs = minBackoffMs;
    if (failing) log.info("job wake-ups work again");
    failing = false;
    // Jobs enqueued while the connection was down sent their notifications to nobody.
    onWake();
    await ended;
    healthy = false;
    await c.end().catch(() => {});
  }

  const loop = (async () => {
    while (!closed) {
      try {
        await session();
        if (!closed) log.warn("the job wake-up connection dropped; reconnecting");
      } catch (error) {
        healthy = false;
        await live.client?.end().catch(() => {});
        if (closed) break;
        if (!failing) log.warn({ err: error }, "job wake-ups unavailable; polling until back");
        failing = true;
      }
      live.client = null;
      if (closed) break;
      // Each failed start doubles the wait (with jitter); a session that started resets it.
      await sleep(backoffMs * (0.5 + Math.random() / 2));
      backoffMs = Math.min(maxBackoffMs, backoffMs * 2);
    }
  })();

  return {
    get healthy() {
      return healthy;
    },
    async close() {
      closed = true;
      healthy = false;
      live.wake?.();
      await live.client?.end().catch(() => {});
      await loop;
    },
  };
}

/**
 * The PostgreSQL wake-ups of one process: NOTIFY on its pool, LISTEN on `listenUrl`. With no
 * `listenUrl` (behind a transaction pooler without DATABASE_DIRECT_URL: LISTEN needs a session
 * the pooler does not keep) the process still tells the others, and its own worker polls at the
 * normal interval.
 */
export function postgresWakeups(options: {
  db: Kysely<Database>;
  listenUrl: string | null;
  log: Logger;
  minGapMs?: number;
}) {
  const log = options.log.child({ component: "job-wakeups" });
  const sender = coalescedSender(
    () => sql`select pg_notify(${WAKEUP_CHANNEL}, '')`.execute(options.db),
    options.minGapMs ?? DEFAULT_NOTIFY_GAP_MS,
    log,
  );
  return {
    broadcast: () => sender.request(),
    listen: (onWake: () => void) => {
      if (options.listenUrl === null) {
        log.info(
          "no session for LISTEN behind a transaction pooler (set DATABASE_DIRECT_URL): the worker polls for jobs from other processes",
        );
        return { healthy: false, close: async () => {} };
      }
      return listenForWakeups({ connectionString: options.listenUrl, onWake, log });
    },
    close: () => sender.close(),
  };
}

/** At most one NOTIFY per this many ms from a process, however many commits enqueue jobs. */
export const DEFAULT_NOTIFY_GAP_MS = 5;
