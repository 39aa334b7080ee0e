/**
 * Queues a new VIP's alerts, inside the transaction that stores the enrichment result: one
 * `alerts` row and one delivery job per configured channel, or nothing at all if that
 * transaction rolls back. The unique (customer_id, channel) constraint with ON CONFLICT DO
 * NOTHING makes "at most one alert per customer and channel, ever" hold across re-enrichment,
 * retries and racing processes; a job is written only for a row this call created.
 *
 * The caller decides who is a VIP; this function alerts whoever it is given.
 */
import type { Kysely, Transaction } from "kysely";
import type { AlertChannel, Database } from "../../db/schema.js";
import { enqueueJob, jobOf } from "../../jobs/enqueue-job.js";
import type { EventHandler } from "../../jobs/event-handlers.js";
import { newId } from "../../lib/ids.js";
import type { VipFound } from "../enrichment/enrichment-deps.js";
import { newVerdictSecret } from "../verdicts/verdict-links.js";
import { ALERT_MAX_ATTEMPTS, alertJobKey } from "./alert-job.js";
import { CHANNELS, channelNamed, readChannelValues } from "./channels/channel-registry.js";
import type { SettingsKey } from "./channels/channel-settings-store.js";

export { ALERT_MAX_ATTEMPTS, alertJobKey };
export const DELIVER_CHAT_ALERT_TASK = channelNamed("chat").task.task;
export const DELIVER_EMAIL_ALERT_TASK = channelNamed("email").task.task;

export interface VipAlertInput {
  accountId: string;
  customerId: string;
  score: number;
  threshold: number;
}

export interface EnqueueAlertOptions {
  /** The request that led here (the enrichment job's): the alert's log lines carry it. */
  requestId?: string | null;
  /** STORE_TOKEN_KEY: opens a sealed webhook URL, whose masked form is the alert's target. */
  key?: SettingsKey;
  /** Told of a channel left off because its sealed settings cannot be opened here. */
  onChannelUnreadable?: (channel: string) => void;
}

export interface QueuedAlert {
  alertId: string;
  channel: AlertChannel;
}

export async function enqueueVipAlerts(
  trx: Transaction<Database> | Kysely<Database>,
  vip: VipAlertInput,
  now: number,
  options: EnqueueAlertOptions = {},
): Promise<QueuedAlert[]> {
  // A secret this process cannot open (STORE_TOKEN_KEY missing or another one) turns its channel
  // off here rather than failing the enrichment that found the VIP; the Alerts page and
  // `velvet account set` name the key.
  const account = await readChannelValues(trx, vip.accountId, options.key ?? null, {
    unreadable: "omit",
    onOmitted: (channel) => options.onChannelUnreadable?.(channel),
  });
  const queued: QueuedAlert[] = [];
  for (const definition of CHANNELS) {
    const channel: AlertChannel = definition.name;
    const target = definition.target(account);
    if (target === null) continue;
    const alertId = newId(now);
    const inserted = await trx
      .insertInto("alerts")
      .values({
        id: alertId,
        account_id: vip.accountId,
        customer_id: vip.customerId,
        channel,
        status: "pending",
        target,
        score: vip.score,
        threshold: vip.threshold,
        message_id: `<${alertId}@velvet>`,
        attempts: 0,
        last_error: null,
        created_at: now,
        delivered_at: null,
        // Signs the message's "Right" / "Not a VIP" links (verdicts/verdict-links.ts).
        verdict_secret: newVerdictSecret(),
      })
      .onConflict((oc) => oc.columns(["customer_id", "channel"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted === undefined) continue;
    await enqueueJob(
      trx,
      jobOf(
        definition.task,
        { alertId },
        {
          jobKey: alertJobKey(alertId),
          maxAttempts: ALERT_MAX_ATTEMPTS,
          requestId: options.requestId ?? null,
        },
      ),
      now,
    );
    queued.push({ alertId, channel });
  }
  return queued;
}

/**
 * The alerts' handler for "VIP found" (registered in main.ts): a live VIP is announced on every
 * channel; a historical one (an import, a store backfill) is not, because people act on an alert
 * and a VIP of last year needs no action today.
 */
export function alertOnVip(
  key: SettingsKey,
  log: { warn(details: object, message: string): void },
): EventHandler<VipFound> {
  return async (trx, vip, now) => {
    if (vip.historical) return;
    await enqueueVipAlerts(trx, vip, now, {
      requestId: vip.requestId,
      key,
      // Said every time: an alert nobody sends must not go unnoticed.
      onChannelUnreadable: (channel) =>
        log.warn(
          { accountId: vip.accountId, customerId: vip.customerId, channel },
          "VIP alert not queued on this channel: its settings are sealed and STORE_TOKEN_KEY is missing or another key",
        ),
    });
  };
}
