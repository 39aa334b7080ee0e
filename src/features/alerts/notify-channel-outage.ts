/**
 * The `notify-channel-outage` task: one e-mail to an account's owners saying that one of its
 * alert channels has been failing for an hour (enqueued once per outage by channel-outages.ts).
 * Sent by the alerts' SMTP sender and retried like an alert; skipped when the outage is over by
 * the time it runs (a delivery on the channel removed the record) or nobody owns the account.
 */
import { z } from "zod";
import type { Deps } from "../../deps.js";
import type { JobOutcome, TaskDefinition } from "../../jobs/task.js";
import type { MetricsDeps } from "../metrics/metrics.js";
import type { AlertDelivery } from "./alert-deps.js";
import { ALERT_BACKOFF, ALERT_RETRY_WINDOW_MS } from "./alert-job.js";
import { NOTIFY_CHANNEL_OUTAGE_TASK, OWNER_NOTICE_AFTER_MS } from "./channel-outages.js";
import { CHANNEL_NAMES, channelNamed } from "./channels/channel-registry.js";
import { buildPlainEmail } from "./plain-email.js";

const PayloadSchema = z.object({
  accountId: z.string().min(1),
  channel: z.enum(CHANNEL_NAMES),
  failingSince: z.number().int(),
});
type Payload = z.infer<typeof PayloadSchema>;

export function notifyChannelOutage(
  delivery: AlertDelivery,
): TaskDefinition<Payload, Deps & MetricsDeps> {
  return {
    task: NOTIFY_CHANNEL_OUTAGE_TASK,
    payload: PayloadSchema,
    backoff: ALERT_BACKOFF,
    handle: (deps, payload) => sendNotice(deps, delivery, payload),
  };
}

async function sendNotice(deps: Deps, delivery: AlertDelivery, p: Payload): Promise<JobOutcome> {
  const db = deps.db.kysely;
  const outage = await db
    .selectFrom("alert_channel_outages")
    .select(["last_error"])
    .where("account_id", "=", p.accountId)
    .where("channel", "=", p.channel)
    .where("failing_since", "=", p.failingSince)
    .executeTakeFirst();
  if (outage === undefined) return { kind: "done" };
  const owners = await db
    .selectFrom("users")
    .select("email")
    .where("account_id", "=", p.accountId)
    .where("role", "=", "owner")
    .orderBy("email")
    .execute();
  if (owners.length === 0) return { kind: "done" };
  const since = new Date(p.failingSince)
    .toISOString()
    .replace(/\.\d+Z$/, " UTC")
    .replace("T", " ");
  const name = channelNamed(p.channel).inSentence;
  const minutes = Math.round(OWNER_NOTICE_AFTER_MS / 60_000);
  const message = buildPlainEmail({
    from: deps.config.alerts.from,
    to: owners[0]?.email ?? "",
    subject: `Velvet: VIP alerts by ${name} have been failing for ${minutes} minutes`,
    paragraphs: [
      `Since ${since}, Velvet has not been able to deliver VIP alerts by ${name}.`,
      `The last error: ${outage.last_error ?? "unknown"}.`,
      `Velvet keeps retrying each alert for ${ALERT_RETRY_WINDOW_MS / 3_600_000} hours after its first attempt. Check the channel's settings (or the server it points at); alerts given up in the meantime can be retried under Settings → System.`,
      "This is the only message about this outage.",
    ],
    link: { url: `${deps.config.publicBaseUrl}/settings/alerts`, label: "Open alert settings" },
  });
  const result = await delivery.sendMail({
    ...message,
    to: owners.map((o) => o.email),
    // The same message on every retry, and one per outage.
    messageId: `<channel-outage.${p.accountId}.${p.channel}.${p.failingSince}@velvet>`,
  });
  if (result.outcome === "delivered") return { kind: "done" };
  if (result.outcome === "failed") return { kind: "fail", error: result.error };
  return { kind: "retry", error: result.error };
}
