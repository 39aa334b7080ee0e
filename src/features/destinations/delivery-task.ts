/** The delivery task's name and payload, and how long a delivery keeps being tried. */
import { z } from "zod";
import { backoffDelayMs } from "../../jobs/backoff.js";
import { taskType } from "../../jobs/task.js";

export const DELIVER_TO_DESTINATION = taskType(
  "deliver-to-destination",
  z.object({ deliveryId: z.uuid() }),
);

/**
 * After a failed attempt the next waits this long (Standard Webhooks' suggested schedule,
 * stretched to three days): 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h five times: 12 attempts
 * over about 2.8 days, each step drawn within ±RETRY_JITTER of it. A Retry-After longer than the
 * step is honoured instead.
 */
export const RETRY_SCHEDULE_MS = [
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
];
export const DELIVERY_MAX_ATTEMPTS = RETRY_SCHEDULE_MS.length + 1;
/** No delivery is tried after this long since its event, whatever it was waiting for. */
export const DELIVERY_WINDOW_MS = 3 * 24 * 3_600_000;

/**
 * Each step of the schedule is drawn within ±10 % of it, as Standard Webhooks recommends ("some
 * level of random jitter"): deliveries that failed together, during a receiver's outage, do not
 * all come back in the same second and knock it over again. The draw is around the step (the
 * jobs' backoff with a `spread`), never near zero, so the schedule still spans its three days.
 */
export const RETRY_JITTER = 0.1;

/**
 * The wait after failed attempt `attempt` (from 1): the schedule's step, jittered; the
 * receiver's Retry-After when it asks for longer; never past the end of the delivery's window
 * (`windowLeftMs`), and at least a second.
 */
export function nextAttemptDelayMs(
  attempt: number,
  retryAfterMs: number | undefined,
  windowLeftMs: number,
  random: () => number = Math.random,
): number {
  const step = RETRY_SCHEDULE_MS[Math.min(attempt - 1, RETRY_SCHEDULE_MS.length - 1)] ?? 0;
  const jittered = backoffDelayMs(1, { baseMs: step, maxMs: step, spread: RETRY_JITTER }, random);
  const delayMs = Math.min(Math.max(jittered, retryAfterMs ?? 0), windowLeftMs);
  return Math.max(delayMs, 1_000);
}
