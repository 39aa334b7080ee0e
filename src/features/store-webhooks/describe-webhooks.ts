/** A connection's webhook health in one line, as the Stores page and `velvet store list` say it. */
import type { StoreConnectionState, StoreWebhooksState } from "../../db/schema.js";

export interface WebhookHealth {
  state: StoreConnectionState;
  webhooks: StoreWebhooksState;
  webhookNote: string | null;
  lastWebhookAt: string | null;
}

/** The two polling intervals (config.storeSync): short without webhooks, long beside them. */
export interface PollIntervals {
  intervalMs: number;
  reconcileIntervalMs: number;
}

export function describeWebhooks(health: WebhookHealth, intervals: PollIntervals): string {
  const poll = seconds(intervals.intervalMs);
  // A paused or broken connection takes nothing, pushed or pulled, until it is resumed.
  if (health.state !== "active") {
    return `no orders taken while ${health.state}: resuming reads what was placed meanwhile`;
  }
  if (health.webhooks === "active") {
    const last =
      health.lastWebhookAt === null ? "no delivery yet" : `last delivery ${health.lastWebhookAt}`;
    return `webhooks delivering (${last}); polling reconciles every ${seconds(intervals.reconcileIntervalMs)}`;
  }
  const why = health.webhookNote ?? "not subscribed";
  if (health.webhooks === "failing") return `webhooks failing: ${why} (polling every ${poll})`;
  return `webhooks off: ${why}`;
}

export function seconds(ms: number): string {
  const s = Math.round(ms / 1000);
  return s % 60 === 0 && s >= 60 ? `${s / 60} min` : `${s} s`;
}
