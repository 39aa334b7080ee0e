/**
 * The `deliver-to-destination` task: one delivery, one attempt. Load the delivery and its
 * destination, skip it if an earlier run delivered it (jobs run at least once: a worker killed
 * after sending and before recording sends again, under the same webhook-id, which receivers
 * use to drop the duplicate), send through the kind's driver, log the attempt with the
 * delivery's new status in one transaction, and answer the job:
 * delivered → done; failed → fail; temporary → retry on RETRY_SCHEDULE_MS, jittered (or the
 * receiver's longer Retry-After) until DELIVERY_WINDOW_MS has passed since the event, then failed.
 * A 410 Gone disables the destination in the same transaction (disable-destination.ts); a
 * delivery whose destination is disabled fails at once, unsent, saying why.
 */
import { sql } from "kysely";
import type { Deps } from "../../deps.js";
import type { JobOutcome, TaskDefinition } from "../../jobs/task.js";
import { newId } from "../../lib/ids.js";
import type { DeliveryResult } from "../alerts/delivery-result.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import { DELIVER_TO_DESTINATION, DELIVERY_WINDOW_MS, nextAttemptDelayMs } from "./delivery-task.js";
import type { DestinationsDeps } from "./destination-driver.js";
import { openSecret } from "./destination-secrets.js";
import { disableDestination, GONE_REASON, notSentBecauseDisabled } from "./disable-destination.js";

type TaskDeps = Deps & DestinationsDeps & MetricsDeps;

export function deliverToDestinationTask(): TaskDefinition<{ deliveryId: string }, TaskDeps> {
  return {
    ...DELIVER_TO_DESTINATION,
    handle: (deps, payload, ctx) => deliver(deps, payload.deliveryId, ctx.attempt, ctx.signal),
    onGiveUp: (deps, payload, error) => markFailed(deps, payload.deliveryId, error),
    onRetry: async (trx, payload) => {
      await trx
        .updateTable("destination_deliveries")
        .set({ status: "pending" })
        .where("id", "=", payload.deliveryId)
        .where("status", "=", "failed")
        .where("body", "is not", null)
        .execute();
    },
  };
}

export async function deliver(
  deps: TaskDeps,
  deliveryId: string,
  attempt: number,
  signal: AbortSignal,
): Promise<JobOutcome> {
  const db = deps.db.kysely;
  const row = await db
    .selectFrom("destination_deliveries as d")
    .innerJoin("destinations as t", "t.id", "d.destination_id")
    .select([
      "d.id",
      "d.event",
      "d.body",
      "d.status",
      "d.created_at",
      "t.id as destination_id",
      "t.account_id",
      "t.kind",
      "t.target",
      "t.settings",
      "t.secret",
      "t.disabled_at",
      "t.disabled_reason",
    ])
    .where("d.id", "=", deliveryId)
    .executeTakeFirst();
  if (row === undefined) return { kind: "fail", error: `delivery ${deliveryId} does not exist` };
  if (row.status === "delivered") return { kind: "done" };
  if (row.body === null) return { kind: "fail", error: "the delivery's body was cleared" };
  if (row.disabled_at !== null) {
    // Queued before its receiver answered 410 Gone: nothing is sent; onGiveUp records why.
    deps.metrics.destinationDelivery(row.kind, "failed");
    return { kind: "fail", error: notSentBecauseDisabled(row.disabled_at, row.disabled_reason) };
  }
  const driver = deps.destinations.get(row.kind);
  const at = deps.clock.now();
  const started = performance.now();
  let result: DeliveryResult;
  if (driver === undefined) {
    result = { outcome: "failed", statusCode: null, error: `no driver for ${row.kind}` };
  } else {
    let secret: string | null = null;
    try {
      secret =
        row.secret === null
          ? null
          : openSecret(deps.config.storeSync.tokenKey, row.destination_id, row.secret);
      result = await driver.send(
        deps,
        {
          id: row.destination_id,
          accountId: row.account_id,
          kind: row.kind,
          target: row.target,
          settings: JSON.parse(row.settings) as Record<string, unknown>,
          secret,
        },
        { id: row.id, event: row.event, body: row.body },
        signal,
      );
    } catch (error) {
      result = { outcome: "failed", statusCode: null, error: (error as Error).message };
    }
  }
  const expired = at - row.created_at >= DELIVERY_WINDOW_MS;
  if (result.outcome === "deferred" && !expired) {
    deps.metrics.destinationDelivery(row.kind, "deferred");
    // Asked to slow down (Klaviyo's 429): logged when something was sent, no attempt spent.
    if (result.statusCode !== undefined) {
      await recordAttempt(deps, row.id, {
        at,
        outcome: "retry",
        statusCode: result.statusCode,
        error: result.error,
        durationMs: performance.now() - started,
        clearBody: false,
        counts: false,
      });
    }
    return { kind: "wait", reason: result.error, delayMs: result.delayMs };
  }
  if (result.outcome === "deferred") {
    result = { outcome: "retry", statusCode: result.statusCode ?? null, error: result.error };
  }
  const outcome = result.outcome === "retry" && expired ? "failed" : result.outcome;
  const gone = result.outcome === "failed" && result.gone === true;
  await recordAttempt(deps, row.id, {
    at,
    outcome,
    statusCode: result.statusCode,
    error: result.error,
    durationMs: performance.now() - started,
    clearBody: outcome !== "retry" && row.event === "customer.forgotten",
    counts: true,
    disable: gone
      ? { accountId: row.account_id, destinationId: row.destination_id, reason: GONE_REASON }
      : undefined,
  });
  if (gone) deps.log.warn({ destinationId: row.destination_id }, "destination disabled: 410 Gone");
  deps.metrics.destinationDelivery(row.kind, outcome);
  const log = { deliveryId, destinationId: row.destination_id, kind: row.kind, attempt, outcome };
  if (outcome === "delivered") {
    deps.log.info(log, "destination delivery sent");
    return { kind: "done" };
  }
  deps.log.warn({ ...log, error: result.error }, "destination delivery not sent");
  const error = result.error ?? "failed";
  if (outcome === "failed" || result.outcome !== "retry") return { kind: "fail", error };
  const windowLeftMs = row.created_at + DELIVERY_WINDOW_MS - at;
  return {
    kind: "retry",
    error,
    delayMs: nextAttemptDelayMs(attempt, result.delayMs, windowLeftMs),
  };
}

interface AttemptRecord {
  at: number;
  outcome: "delivered" | "retry" | "failed";
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** A finished customer.forgotten delivery drops its body: the e-mail goes with it. */
  clearBody: boolean;
  /** False for a 429 that only asked to wait: logged, not counted as an attempt. */
  counts: boolean;
  /** A 410 Gone: the destination is disabled with the attempt, or not at all. */
  disable?: { accountId: string; destinationId: string; reason: string };
}

const STATUS_AFTER = { delivered: "delivered", retry: "pending", failed: "failed" } as const;

async function recordAttempt(deps: Pick<Deps, "db">, deliveryId: string, a: AttemptRecord) {
  await deps.db.kysely.transaction().execute(async (trx) => {
    await trx
      .insertInto("destination_attempts")
      .values({
        id: newId(a.at),
        delivery_id: deliveryId,
        attempted_at: a.at,
        outcome: a.outcome,
        status_code: a.statusCode,
        error: a.error,
        duration_ms: Math.max(0, Math.round(a.durationMs)),
      })
      .execute();
    await trx
      .updateTable("destination_deliveries")
      .set({
        status: STATUS_AFTER[a.outcome],
        attempts: sql<number>`attempts + ${a.counts ? 1 : 0}`,
        last_error: a.error,
        ...(a.outcome === "delivered" ? { delivered_at: a.at } : {}),
        ...(a.clearBody ? { body: null } : {}),
      })
      .where("id", "=", deliveryId)
      .where("status", "!=", "delivered")
      .execute();
    if (a.disable !== undefined) await disableDestination(trx, { ...a.disable, at: a.at });
  });
}

/** When the job gives up: failed (unless an earlier run delivered it). Idempotent. */
async function markFailed(deps: Pick<Deps, "db">, deliveryId: string, error: string) {
  await deps.db.kysely
    .updateTable("destination_deliveries")
    .set({ status: "failed", last_error: error })
    .where("id", "=", deliveryId)
    .where("status", "!=", "delivered")
    .execute();
  await deps.db.kysely
    .updateTable("destination_deliveries")
    .set({ body: null })
    .where("id", "=", deliveryId)
    .where("event", "=", "customer.forgotten")
    .execute();
}
