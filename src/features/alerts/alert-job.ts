/** What the alert delivery jobs carry and how they back off. */
import { z } from "zod";
import type { BackoffPolicy } from "../../jobs/task.js";

export const AlertJobPayloadSchema = z.object({ alertId: z.uuid() });
export type AlertJobPayload = z.infer<typeof AlertJobPayloadSchema>;

/** Slower than the worker's default: a chat or mail outage usually lasts minutes, not seconds. */
export const ALERT_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 600_000 };
