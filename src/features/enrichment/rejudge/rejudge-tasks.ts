/**
 * The two ways a re-judge (rejudge-customer.ts) is started, both after the order was
 * acknowledged, both batched:
 *
 * - `rejudge-orders`, periodic (every REJUDGE_EVERY_MS): reads the orders received since its
 *   cursor (`rejudge_cursors`), grouped by customer, and re-judges each enriched customer whose
 *   enrichment predates their new order, once per run however many orders they placed. This is
 *   how the API's orders of returning customers are found, so the intake writes nothing more
 *   for them: no job row, no flag, no statement (orders/submit-order*.ts are untouched; a
 *   returning customer's order is the one insert it was). The cost moves here: one range read
 *   of the orders' primary key per run, a few indexed reads per re-judged customer.
 *   Order ids are UUIDv7 made from the order's own date, so the cursor walks the orders in the
 *   order they were received; a backdated order (a history import, a store backfill) has an old
 *   id and is never read here: whoever brings it in asks for the re-judge (below). The scan
 *   stops SETTLE_MS short of now, so an intake transaction still open when it reads (ids are
 *   made before the commit) is read next time instead of missed.
 *   Rejected alternative: one keyed job per returning customer written by the intake. Measured
 *   on SQLite (better-sqlite3, WAL, 2,000 customers with 5 orders each, one transaction per
 *   order, 5 rounds): the order's insert and commit alone took a median 119–131 µs, with the
 *   keyed job's upsert added 158–194 µs, about a third more per returning customer's order
 *   (and more than that of the writes themselves where group commit shares the commits); on
 *   PostgreSQL it would have to join the one-statement batch of submission-statement.ts. The
 *   periodic scan instead costs the cluster a claimed job, one indexed range read and a cursor
 *   write every 2 s, whatever the order rate, and delays a promotion by at most ~5 s.
 * - `rejudge-customer`, keyed per customer (enqueue-rejudge.ts): for a store sync (a known
 *   order's status changed, or a known customer's order pulled with its platform date) and a
 *   history import (once per customer, at its end).
 */
import { z } from "zod";
import type { Deps } from "../../../deps.js";
import type { TaskDefinition } from "../../../jobs/task.js";
import type { EnrichmentDeps } from "../enrichment-deps.js";
import { createStoreWindows } from "../offline/store-order-window.js";
import { REJUDGE_CUSTOMER, type RejudgeCustomerPayload } from "./enqueue-rejudge.js";
import { rejudgeCustomer } from "./rejudge-customer.js";

export const REJUDGE_EVERY_MS = 2_000;
/** How long before now the scan stops: longer than any intake transaction stays open. */
export const SETTLE_MS = 3_000;
/** Orders read per run; a full batch runs again at once. */
const BATCH = 2_000;
const CURSOR = "orders";
/** An enrichment that ended this soon after the order may not have seen it: re-judge anyway. */
const SEEN_MARGIN_MS = 1_000;

type RejudgeDeps = Deps & EnrichmentDeps;

/** The smallest id of the millisecond `ms` (a prefix that sorts before all its UUIDv7s). */
export function idFloor(ms: number): string {
  const t = Math.max(0, Math.floor(ms)).toString(16).padStart(12, "0");
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-`;
}

export function createRejudgeOrdersTask(): TaskDefinition<Record<string, never>, RejudgeDeps> {
  const windows = createStoreWindows();
  return {
    task: "rejudge-orders",
    payload: z.object({}),
    periodic: { everyMs: REJUDGE_EVERY_MS },
    async handle(deps, _payload, ctx) {
      const db = deps.db.kysely;
      const now = deps.clock.now();
      const bound = idFloor(now - SETTLE_MS);
      const cursor = await db
        .selectFrom("rejudge_cursors")
        .select("last_order_id")
        .where("name", "=", CURSOR)
        .executeTakeFirst();
      // A first run starts from now: the history before it was scored by its enrichments.
      const from = cursor?.last_order_id ?? bound;
      const orders = await db
        .selectFrom("orders")
        .select(["id", "customer_id", "created_at"])
        .where("id", ">", from)
        .where("id", "<", bound)
        .orderBy("id")
        .limit(BATCH)
        .execute();
      const full = orders.length === BATCH;
      const next = full ? (orders[orders.length - 1]?.id ?? bound) : bound;
      const latest = new Map<string, number>();
      for (const o of orders) {
        latest.set(o.customer_id, Math.max(latest.get(o.customer_id) ?? 0, o.created_at));
      }
      const due = await enrichedBefore(deps, latest);
      let changed = 0;
      for (const customerId of due) {
        if (ctx.signal.aborted) break;
        const outcome = await rejudgeCustomer(deps, windows, customerId, {
          historical: false,
          requestId: null,
        });
        if (outcome.kind === "promoted" || outcome.kind === "demoted") changed++;
      }
      // Only once every customer read was re-judged does the cursor move past their orders.
      if (!ctx.signal.aborted) await saveCursor(deps, next, deps.clock.now());
      if (changed > 0) deps.jobs.notify();
      return { kind: "again", delayMs: full ? 0 : REJUDGE_EVERY_MS };
    },
  };
}

/** Of these customers, the enriched ones whose enrichment ended before their latest order. */
async function enrichedBefore(
  deps: RejudgeDeps,
  latest: ReadonlyMap<string, number>,
): Promise<string[]> {
  const ids = [...latest.keys()];
  const due: string[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await deps.db.kysely
      .selectFrom("customers")
      .innerJoin("enrichments", "enrichments.customer_id", "customers.id")
      .select(["customers.id", "enrichments.enriched_at"])
      .where("customers.id", "in", ids.slice(i, i + 500))
      .where("customers.enrichment_status", "=", "enriched")
      .execute();
    for (const r of rows) {
      const orderedAt = latest.get(r.id) ?? 0;
      if (r.enriched_at === null || r.enriched_at < orderedAt + SEEN_MARGIN_MS) due.push(r.id);
    }
  }
  return due;
}

async function saveCursor(deps: RejudgeDeps, orderId: string, now: number): Promise<void> {
  await deps.db.kysely
    .insertInto("rejudge_cursors")
    .values({ name: CURSOR, last_order_id: orderId, updated_at: now })
    .onConflict((oc) => oc.column("name").doUpdateSet({ last_order_id: orderId, updated_at: now }))
    .execute();
}

export function createRejudgeCustomerTask(): TaskDefinition<
  z.infer<typeof RejudgeCustomerPayload>,
  RejudgeDeps
> {
  const windows = createStoreWindows();
  return {
    ...REJUDGE_CUSTOMER,
    async handle(deps, payload, ctx) {
      const outcome = await rejudgeCustomer(deps, windows, payload.customerId, {
        historical: payload.historical,
        requestId: ctx.requestId,
      });
      if (outcome.kind === "promoted" || outcome.kind === "demoted") deps.jobs.notify();
      return { kind: "done" };
    },
  };
}
