/** What the alert delivery jobs carry, how they back off and for how long they retry. */
import { z } from "zod";
import { type BackoffPolicy, type TaskType, taskType } from "../../jobs/task.js";

export const AlertJobPayloadSchema = z.object({ alertId: z.uuid() });
export type AlertJobPayload = z.infer<typeof AlertJobPayloadSchema>;

/** A channel's delivery task (one per channel, channels/channel-registry.ts), carrying the alert's id. */
export function alertTaskType(task: string): TaskType<typeof AlertJobPayloadSchema> {
  return taskType(task, AlertJobPayloadSchema);
}

/**
 * A backstop only: an alert is given up when its retry window has passed (ALERT_RETRY_WINDOW_MS),
 * which with the alerts' backoff takes fewer than 200 attempts.
 */
export const ALERT_MAX_ATTEMPTS = 500;

export function alertJobKey(alertId: string): string {
  return `alert:${alertId}`;
}

/**
 * 5 s, doubling, capped at 10 minutes, each wait within 20 % of that (not between zero and it):
 * a chat or mail server that comes back is tried again within about 12 minutes, and retries
 * add up to a window of known length.
 */
export const ALERT_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 600_000, spread: 0.2 };

/**
 * An alert that fails for a temporary reason (timeouts, 5xx, SMTP 4xx, connection errors) is
 * retried until this long after its first attempt, then given up (still retryable by hand).
 * Waiting for pacing or a rate limit (429) does not count as an attempt.
 */
export const ALERT_RETRY_WINDOW_MS = 24 * 60 * 60_000;
