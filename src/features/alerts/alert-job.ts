/** What the alert delivery jobs carry and how they back off. */
import { z } from "zod";
import type { AlertChannel } from "../../db/schema.js";
import { type BackoffPolicy, type TaskType, taskType } from "../../jobs/task.js";

export const AlertJobPayloadSchema = z.object({ alertId: z.uuid() });
export type AlertJobPayload = z.infer<typeof AlertJobPayloadSchema>;

/** One delivery task per channel, each carrying the alert's id. */
export const ALERT_TASKS: Record<AlertChannel, TaskType<typeof AlertJobPayloadSchema>> = {
  chat: taskType("deliver-chat-alert", AlertJobPayloadSchema),
  email: taskType("deliver-email-alert", AlertJobPayloadSchema),
};

/** Slower than the worker's default: a chat or mail outage usually lasts minutes, not seconds. */
export const ALERT_BACKOFF: BackoffPolicy = { baseMs: 5_000, maxMs: 600_000 };
