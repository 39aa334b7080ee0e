/**
 * A failed enrichment asked to run again, by a new order (submit-order.ts) or by reviving its
 * job (`velvet jobs retry`, the dashboard): the customer is `pending` again. Runs inside the
 * caller's transaction; a customer that is not `failed` is left as it is, and the answer says
 * whether this call flipped it (of racing requests, only one does).
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

export async function requeueFailedEnrichment(
  trx: Transaction<Database>,
  customerId: string,
  now: number,
): Promise<boolean> {
  const flipped = await trx
    .updateTable("customers")
    .set({ enrichment_status: "pending", updated_at: now })
    .where("id", "=", customerId)
    .where("enrichment_status", "=", "failed")
    .executeTakeFirst();
  return flipped.numUpdatedRows > 0n;
}
