/**
 * Deletes everything that holds one customer's personal data, inside the caller's transaction.
 * Every erasure goes through here (`velvet customer forget` and the dashboard's erase, customer
 * retention, closing an account, removing sample data, and the preview that rolls it back):
 * 1. their orders' ids are remembered (remember-erased-orders.ts), so a store sync or a file
 *    import that meets one of those orders again does not bring the person back;
 * 2. "customer forgotten" is raised with the erasure's reason (its handlers, such as
 *    destinations, enqueue the erasure of the copies they handed outside; only the person's own
 *    request deletes those copies outright, see privacy-registry.ts);
 * 3. the pending jobs every holder names go, then each holder's rows (privacy-registry.ts:
 *    orders, enrichment, provider answers, alerts, deliveries; billing unlinks its charge), then
 *    the customer.
 *
 * A sample customer (features/demo) skips the first two steps: the sample was never handed to
 * anyone, and its orders are no store's (their ids carry the sample prefix), so remembering them
 * would only stop the same sample from being added again.
 *
 * A job already running for this customer finds its lease gone and its writes refused by the
 * foreign keys (its customer no longer exists), so nothing of the person is written back.
 */
import type { Transaction } from "kysely";
import { rowsTouched } from "../../db/personal-data.js";
import type { Database } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { raise } from "../../jobs/event-handlers.js";
import type { ErasureReason, PrivacyDeps } from "./privacy-registry.js";
import { rememberErasedOrders } from "./remember-erased-orders.js";

/** What went, by name (`jobs` and each holder's counts): shown and recorded in the audit trail. */
export type ErasedCounts = Record<string, number>;

export async function eraseCustomerRows(
  trx: Transaction<Database>,
  deps: Pick<Deps, "config"> & PrivacyDeps,
  customerId: string,
  reason: ErasureReason,
  now: number,
): Promise<ErasedCounts> {
  const registry = deps.privacy;
  // Two erasures of one person may meet (the closing job and `velvet account delete`, or a
  // request and retention): on PostgreSQL the second waits for the first's lock on the row and
  // then finds it gone, so the person is forgotten once, with one "customer forgotten"; SQLite
  // runs one writing transaction at a time.
  const customer = await trx
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select(["customers.email", "customers.store_id", "customers.sample", "stores.account_id"])
    .where("customers.id", "=", customerId)
    .$if(deps.config.database.kind === "postgres", (q) => q.forUpdate("customers"))
    .executeTakeFirst();
  if (customer === undefined) return { jobs: 0 };
  if (customer.sample !== 1) {
    await rememberErasedOrders(trx, deps.config, customerId, now);
    await raise(
      registry.forgotten,
      trx,
      {
        accountId: customer.account_id,
        storeId: customer.store_id,
        customerId,
        email: customer.email,
        reason,
      },
      now,
    );
  }
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
