/**
 * Deletes everything that holds one customer's personal data, inside the caller's transaction:
 * pending jobs (their enrichment and alert deliveries), delivery attempts, alerts, every
 * provider's raw answer, the enrichment with its profile, orders, and the customer. The usage
 * charge stays for billing, unlinked (customer_id = null): amount, price, month, account and
 * store, nothing that identifies the person.
 *
 * A job already running for this customer finds its lease gone and its writes refused by the
 * foreign keys (its customer no longer exists), so nothing of the person is written back.
 */
import type { Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { ENRICH_CUSTOMER_TASK } from "../enrichment/enqueue-enrichment.js";

/** What went: the counts shown after an erasure and recorded in the audit trail. */
export interface ErasedCounts {
  orders: number;
  providerAnswers: number;
  enrichments: number;
  alerts: number;
  deliveryAttempts: number;
  jobs: number;
  /** Charges kept for billing, now without the customer. */
  chargesKept: number;
}

const n = (r: { numDeletedRows?: bigint; numUpdatedRows?: bigint }) =>
  Number(r.numDeletedRows ?? r.numUpdatedRows ?? 0n);

export async function eraseCustomerRows(
  trx: Transaction<Database>,
  customerId: string,
): Promise<ErasedCounts> {
  const alertIds = (
    await trx.selectFrom("alerts").select("id").where("customer_id", "=", customerId).execute()
  ).map((a) => a.id);
  const jobKeys = [`${ENRICH_CUSTOMER_TASK}:${customerId}`, ...alertIds.map((id) => `alert:${id}`)];
  const jobs = await trx.deleteFrom("jobs").where("job_key", "in", jobKeys).executeTakeFirst();
  const attempts =
    alertIds.length === 0
      ? { numDeletedRows: 0n }
      : await trx.deleteFrom("alert_attempts").where("alert_id", "in", alertIds).executeTakeFirst();
  const alerts = await trx
    .deleteFrom("alerts")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  const answers = await trx
    .deleteFrom("provider_results")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  const enrichments = await trx
    .deleteFrom("enrichments")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  const orders = await trx
    .deleteFrom("orders")
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  const charges = await trx
    .updateTable("usage_charges")
    .set({ customer_id: null })
    .where("customer_id", "=", customerId)
    .executeTakeFirst();
  await trx.deleteFrom("customers").where("id", "=", customerId).execute();
  return {
    orders: n(orders),
    providerAnswers: n(answers),
    enrichments: n(enrichments),
    alerts: n(alerts),
    deliveryAttempts: n(attempts),
    jobs: n(jobs),
    chargesKept: n(charges),
  };
}
