/**
 * One delivery attempt of one alert, whatever the channel: load the alert, skip it if it was
 * already delivered (jobs run at least once), send through the channel's driver, record the
 * attempt, and turn the result into the job's outcome:
 * - delivered → done (and the channel's outage, if any, is over);
 * - deferred (this process's pacing, or the server's 429) → wait: nothing was delivered, the
 *   channel works, and the attempt does not count;
 * - temporary failure → retry, after the server's Retry-After when it gave one (never sooner
 *   than the backoff), until ALERT_RETRY_WINDOW_MS after the first attempt (since the alert was
 *   last given up and retried by hand), then fail;
 * - permanent failure → fail.
 * Every failure also feeds the channel's outage record, which tells the owners once after an
 * hour (channel-outages.ts).
 */
import type { AlertChannel } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { backoffDelayMs } from "../../jobs/backoff.js";
import type { JobContext, JobOutcome } from "../../jobs/task.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import { ALERT_BACKOFF, ALERT_RETRY_WINDOW_MS } from "./alert-job.js";
import { channelDelivered, channelFailed } from "./channel-outages.js";
import type { DeliveryResult } from "./delivery-result.js";
import { type LoadedAlert, loadAlert } from "./load-alert.js";
import { recordDeliveryAttempt } from "./record-delivery-attempt.js";

export interface ChannelDriver {
  channel: AlertChannel;
  /** Where the alert goes now (masked for a webhook), or null if the channel was removed. */
  target(alert: LoadedAlert): string | null;
  send(alert: LoadedAlert, deps: Deps & MetricsDeps, signal: AbortSignal): Promise<DeliveryResult>;
  /**
   * When there is no target yet but there will be (an alert address awaiting confirmation):
   * why the alert waits, and until when. The alert is kept, not failed.
   */
  waitFor?(alert: LoadedAlert): { reason: string; until: number } | null;
}

/** How often an alert waiting for a confirmed address looks again (a confirmation wakes it). */
export const AWAIT_TARGET_RECHECK_MS = 15 * 60_000;

export async function deliverAlert(
  deps: Deps & MetricsDeps,
  driver: ChannelDriver,
  alertId: string,
  ctx: JobContext,
): Promise<JobOutcome> {
  const alert = await loadAlert(
    deps.db.kysely,
    alertId,
    deps.config.publicBaseUrl,
    deps.config.storeSync.tokenKey,
  );
  if (alert === null) return { kind: "fail", error: `alert ${alertId} does not exist` };
  if (alert.channel !== driver.channel)
    return { kind: "fail", error: `alert ${alertId} is a ${alert.channel} alert` };
  if (alert.status === "delivered") return { kind: "done" };

  const target = driver.target(alert);
  const at = deps.clock.now();
  const waiting = target === null ? (driver.waitFor?.(alert) ?? null) : null;
  if (waiting !== null && at < waiting.until) {
    // Shown as waiting, with why, in the dashboard and `velvet alerts list`; no attempt spent.
    await deps.db.kysely
      .updateTable("alerts")
      .set({ status: "waiting", last_error: waiting.reason })
      .where("id", "=", alertId)
      .where("status", "in", ["pending", "waiting"])
      .execute();
    return { kind: "wait", reason: waiting.reason, delayMs: AWAIT_TARGET_RECHECK_MS };
  }
  const started = performance.now();
  const result: DeliveryResult =
    target === null
      ? {
          outcome: "failed",
          statusCode: null,
          error:
            waiting !== null
              ? "no alert address was confirmed in time"
              : `the ${driver.channel} channel is no longer configured for this account`,
        }
      : await driver.send(alert, deps, ctx.signal);
  const durationMs = performance.now() - started;
  // Pacing records no attempt: an alert only ever paced (nothing sent) is timed from its creation.
  const windowStart =
    (await firstAttemptAt(deps, alertId)) ?? (result.outcome === "deferred" ? alert.createdAt : at);
  const windowOver = at - windowStart >= ALERT_RETRY_WINDOW_MS;
  if (result.outcome === "deferred") {
    deps.metrics.alertDelivery(driver.channel, "deferred");
    // A webhook that answers 429 for a whole window is given up like one that fails.
    if (!windowOver) {
      // The server's 429 was a request made: it is in the alert's history, not in its budget.
      if (result.statusCode !== null) {
        await recordDeliveryAttempt(deps.db.kysely, alert.alertId, {
          at,
          outcome: "retry",
          statusCode: result.statusCode,
          error: result.error,
          durationMs: performance.now() - started,
          target,
        });
      }
      return { kind: "wait", reason: result.error, delayMs: result.delayMs };
    }
  }

  const lastTry = result.outcome !== "delivered" && (ctx.attempt >= ctx.maxAttempts || windowOver);
  const outcome =
    result.outcome === "delivered"
      ? "delivered"
      : result.outcome === "failed" || lastTry
        ? "failed"
        : "retry";
  const error =
    result.error === null ? null : lastTry ? givenUp(result.error, windowOver, ctx) : result.error;
  deps.metrics.alertDelivery(driver.channel, outcome);
  await recordDeliveryAttempt(deps.db.kysely, alert.alertId, {
    at,
    outcome,
    statusCode: result.statusCode ?? null,
    error,
    durationMs,
    target,
  });
  const ref = { accountId: alert.accountId, channel: driver.channel };
  const log = { alertId, channel: driver.channel, target, attempt: ctx.attempt, outcome };
  if (result.outcome === "delivered") {
    await channelDelivered(deps.db.kysely, ref);
    deps.log.info({ ...log, statusCode: result.statusCode }, "alert delivered");
    return { kind: "done" };
  }
  deps.log.warn({ ...log, statusCode: result.statusCode, error }, "alert not delivered");
  if (await channelFailed(deps.db.kysely, ref, { at, error: result.error })) {
    deps.jobs.notify();
    deps.log.warn(ref, "alert channel failing for an hour: its owners are told by e-mail");
  }
  if (outcome === "failed") return { kind: "fail", error: error ?? result.error };
  if (result.outcome === "retry" && result.delayMs !== undefined) {
    // The server's Retry-After, but never sooner than the backoff: a server that asks for 1 s
    // every time must not use up the attempts in minutes.
    const backoff = backoffDelayMs(ctx.attempt, ALERT_BACKOFF);
    return { kind: "retry", error: result.error, delayMs: Math.max(result.delayMs, backoff) };
  }
  return { kind: "retry", error: result.error };
}

function givenUp(error: string, windowOver: boolean, ctx: JobContext): string {
  const hours = ALERT_RETRY_WINDOW_MS / 3_600_000;
  return windowOver
    ? `${error} (given up: not delivered within ${hours} hours of the first attempt)`
    : `${error} (given up after ${ctx.attempt} attempts)`;
}

/**
 * When the alert's current window began: its first attempt since it was last given up (a
 * `failed` attempt ends a window, so an alert retried by hand gets a whole new one).
 */
async function firstAttemptAt(deps: Deps, alertId: string): Promise<number | null> {
  const row = await deps.db.kysely
    .selectFrom("alert_attempts")
    .select((eb) => eb.fn.min<number>("attempted_at").as("first"))
    .where("alert_id", "=", alertId)
    .where((eb) =>
      eb(
        "attempted_at",
        ">",
        eb.fn.coalesce(
          eb
            .selectFrom("alert_attempts as given_up")
            .select((inner) => inner.fn.max<number>("given_up.attempted_at").as("at"))
            .where("given_up.alert_id", "=", alertId)
            .where("given_up.outcome", "=", "failed"),
          eb.lit(-1),
        ),
      ),
    )
    .executeTakeFirst();
  return row?.first ?? null;
}
