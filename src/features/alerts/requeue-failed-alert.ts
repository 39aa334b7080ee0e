/**
 * A failed alert asked to be delivered again (its job is being revived: `velvet jobs retry`,
 * the dashboard): `pending` again, its attempts and last error kept for the record. Runs inside
 * the reviving transaction; an alert that is not `failed` is left as it is.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

export async function requeueFailedAlert(
  trx: Transaction<Database>,
  alertId: string,
): Promise<void> {
  await trx
    .updateTable("alerts")
    .set({ status: "pending" })
    .where("id", "=", alertId)
    .where("status", "=", "failed")
    .execute();
}
