/**
 * One delivery attempt of one alert, whatever the channel: load the alert, skip it if it was
 * already delivered (jobs run at least once), send through the channel's driver, record the
 * attempt, and turn the result into the job's outcome: delivered → done, temporary → retry
 * (with the server's Retry-After when it gave one), permanent → fail.
 */
import type { AlertChannel } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import type { JobContext, JobOutcome } from "../../jobs/task.js";
import type { MetricsDeps } from "../metrics/metrics.js";
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
  const alert = await loadAlert(deps.db.kysely, alertId, deps.config.publicBaseUrl);
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
  if (result.outcome === "deferred") {
    deps.metrics.alertDelivery(driver.channel, "deferred");
    return { kind: "retry", error: result.error, delayMs: result.delayMs };
  }

  const lastTry = result.outcome === "retry" && ctx.attempt >= ctx.maxAttempts;
  const outcome = result.outcome === "retry" && lastTry ? "failed" : result.outcome;
  deps.metrics.alertDelivery(driver.channel, outcome);
  await recordDeliveryAttempt(deps.db.kysely, alert.alertId, {
    at,
    outcome,
    statusCode: result.statusCode,
    error: result.error,
    durationMs,
    target,
  });
  const log = { alertId, channel: driver.channel, target, attempt: ctx.attempt, outcome };
  if (result.outcome === "delivered") {
    deps.log.info({ ...log, statusCode: result.statusCode }, "alert delivered");
    return { kind: "done" };
  }
  deps.log.warn(
    { ...log, statusCode: result.statusCode, error: result.error },
    "alert not delivered",
  );
  if (result.outcome === "failed") return { kind: "fail", error: result.error };
  return result.delayMs === undefined
    ? { kind: "retry", error: result.error }
    : { kind: "retry", error: result.error, delayMs: result.delayMs };
}
