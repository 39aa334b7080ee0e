/**
 * A failed enrichment asked to run again (its job is being revived: `velvet jobs retry`, the
 * dashboard): the customer is `pending` again, as after a new order requeued it. Runs inside
 * the reviving transaction; a customer that is not `failed` is left as it is.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

export async function requeueFailedEnrichment(
  trx: Transaction<Database>,
  customerId: string,
  now: number,
): Promise<void> {
  await trx
    .updateTable("customers")
    .set({ enrichment_status: "pending", updated_at: now })
    .where("id", "=", customerId)
    .where("enrichment_status", "=", "failed")
    .execute();
}
