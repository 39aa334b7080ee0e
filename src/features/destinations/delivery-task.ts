/** The delivery task's name and payload, and how long a delivery keeps being tried. */
import { z } from "zod";
import { taskType } from "../../jobs/task.js";

export const DELIVER_TO_DESTINATION = taskType(
  "deliver-to-destination",
  z.object({ deliveryId: z.uuid() }),
);

/**
 * After a failed attempt the next waits this long (Standard Webhooks' suggested schedule,
 * stretched to three days): 5 s, 5 min, 30 min, 2 h, 5 h, then 10 h five times: 12 attempts
 * over about 2.8 days. A Retry-After longer than the step is honoured instead.
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
