/**
 * Deletes everything that holds one customer's personal data, inside the caller's transaction:
 * first "customer forgotten" is raised (its handlers, such as destinations, enqueue the erasure
 * of the copies they handed outside), then the pending jobs every holder names, then each
 * holder's rows (privacy-registry.ts: orders, enrichment, provider answers, alerts, deliveries;
 * billing unlinks its charge), then the customer.
 *
 * A job already running for this customer finds its lease gone and its writes refused by the
 * foreign keys (its customer no longer exists), so nothing of the person is written back.
 */
import type { Transaction } from "kysely";
import { rowsTouched } from "../../db/personal-data.js";
import type { Database } from "../../db/schema.js";
import { raise } from "../../jobs/event-handlers.js";
import type { PrivacyRegistry } from "./privacy-registry.js";

/** What went, by name (`jobs` and each holder's counts): shown and recorded in the audit trail. */
export type ErasedCounts = Record<string, number>;

export async function eraseCustomerRows(
  trx: Transaction<Database>,
  registry: PrivacyRegistry,
  customerId: string,
  now: number,
): Promise<ErasedCounts> {
  const customer = await trx
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select(["customers.email", "customers.store_id", "customers.sample", "stores.account_id"])
    .where("customers.id", "=", customerId)
    .executeTakeFirst();
  if (customer === undefined) return { jobs: 0 };
  // Sample data (features/demo) was never handed to anyone: nobody is told it is gone.
  if (customer.sample !== 1)
    await raise(
      registry.forgotten,
      trx,
      {
        accountId: customer.account_id,
        storeId: customer.store_id,
        customerId,
        email: customer.email,
      },
      now,
    );
  const jobKeys: string[] = [];
  for (const holder of registry.holders)
    jobKeys.push(...((await holder.jobKeys?.(trx, customerId)) ?? []));
  const jobs =
    jobKeys.length === 0
      ? 0
      : rowsTouched(
          await trx.deleteFrom("jobs").where("job_key", "in", jobKeys).executeTakeFirst(),
        );
  const counts: ErasedCounts = { jobs };
  for (const holder of registry.holders) Object.assign(counts, await holder.erase(trx, customerId));
  await trx.deleteFrom("customers").where("id", "=", customerId).execute();
  return counts;
}
