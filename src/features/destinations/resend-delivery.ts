/**
 * "Send again" from the dashboard: the delivery goes back to pending and its job is enqueued
 * again under the same key, so it is sent with the same body and webhook-id (a receiver that
 * already has it drops it) and a fresh retry window. A delivery whose body was cleared (a
 * finished customer.forgotten) cannot be resent. False when the account has no such delivery.
 */
import type { Deps } from "../../deps.js";
import { enqueueJob, jobOf } from "../../jobs/enqueue-job.js";
import { AppError } from "../../lib/app-error.js";
import { DELIVER_TO_DESTINATION, DELIVERY_MAX_ATTEMPTS } from "./delivery-task.js";
import { deliveryJobKey } from "./enqueue-deliveries.js";

export async function resendDelivery(
  deps: Pick<Deps, "db" | "clock" | "jobs">,
  input: { accountId: string; deliveryId: string },
): Promise<boolean> {
  const now = deps.clock.now();
  const found = await deps.db.kysely.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("destination_deliveries")
      .select(["id", "body"])
      .where("id", "=", input.deliveryId)
      .where("account_id", "=", input.accountId)
      .executeTakeFirst();
    if (row === undefined) return false;
    if (row.body === null)
      throw new AppError("conflict", "This delivery's content was erased: it cannot be sent again");
    // The retry window starts again now: created_at is when the window opened.
    await trx
      .updateTable("destination_deliveries")
      .set({ status: "pending", created_at: now, delivered_at: null })
      .where("id", "=", row.id)
      .execute();
    await enqueueJob(
      trx,
      jobOf(
        DELIVER_TO_DESTINATION,
        { deliveryId: row.id },
        { jobKey: deliveryJobKey(row.id), maxAttempts: DELIVERY_MAX_ATTEMPTS },
      ),
      now,
    );
    return true;
  });
  if (found) deps.jobs.notify();
  return found;
}
