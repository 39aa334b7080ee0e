/**
 * An account's alert channel that keeps failing, and the one e-mail that tells its owners.
 *
 * Every failed delivery attempt (temporary or permanent) on a channel records, once, since when
 * the channel has been failing (`alert_channel_outages`); a delivery on it ends the outage (the
 * row goes). The first failure at least OWNER_NOTICE_AFTER_MS after the outage began claims the
 * notice (`owner_notified_at`, set once by a conditional update, so one process and one job send
 * it however many alerts fail meanwhile) and enqueues the `notify-channel-outage` job in the
 * same transaction. Its job key names the outage, so a later outage is told again.
 */
import type { Kysely } from "kysely";
import type { AlertChannel, Database } from "../../db/schema.js";
import { enqueueJob } from "../../jobs/enqueue-job.js";
import { clipError } from "../../jobs/settle-job.js";
import { ALERT_MAX_ATTEMPTS } from "./alert-job.js";

export const OWNER_NOTICE_AFTER_MS = 60 * 60_000;
export const NOTIFY_CHANNEL_OUTAGE_TASK = "notify-channel-outage";

export interface ChannelRef {
  accountId: string;
  channel: AlertChannel;
}

/** Records a failed attempt; true when this call enqueued the owners' notice. */
export async function channelFailed(
  db: Kysely<Database>,
  ref: ChannelRef,
  props: { at: number; error: string },
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto("alert_channel_outages")
      .values({
        account_id: ref.accountId,
        channel: ref.channel,
        failing_since: props.at,
        last_error: clipError(props.error),
        owner_notified_at: null,
      })
      .onConflict((oc) =>
        oc.columns(["account_id", "channel"]).doUpdateSet({ last_error: clipError(props.error) }),
      )
      .execute();
    const claimed = await trx
      .updateTable("alert_channel_outages")
      .set({ owner_notified_at: props.at })
      .where("account_id", "=", ref.accountId)
      .where("channel", "=", ref.channel)
      .where("owner_notified_at", "is", null)
      .where("failing_since", "<=", props.at - OWNER_NOTICE_AFTER_MS)
      .returning("failing_since")
      .executeTakeFirst();
    if (claimed === undefined) return false;
    await enqueueJob(
      trx,
      {
        task: NOTIFY_CHANNEL_OUTAGE_TASK,
        payload: { ...ref, failingSince: claimed.failing_since },
        jobKey: `channel-outage:${ref.accountId}:${ref.channel}:${claimed.failing_since}`,
        maxAttempts: ALERT_MAX_ATTEMPTS,
      },
      props.at,
    );
    return true;
  });
}

/** A delivery on the channel: its outage, if any, is over. */
export async function channelDelivered(db: Kysely<Database>, ref: ChannelRef): Promise<void> {
  await db
    .deleteFrom("alert_channel_outages")
    .where("account_id", "=", ref.accountId)
    .where("channel", "=", ref.channel)
    .execute();
}
