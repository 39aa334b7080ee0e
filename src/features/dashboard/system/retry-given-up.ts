/**
 * The Retry button of Settings → System: revives the job of one of the account's failed
 * enrichments or alerts (retryJobs: the job due now, the enrichment or alert `pending` again,
 * in one transaction). Another account's id, an unknown one and one that is not failed are all
 * `not_found`, so the answer reveals nothing about other accounts.
 */
import type { Deps } from "../../../deps.js";
import { retryJobs } from "../../../jobs/retry-jobs.js";
import type { TaskDefinition } from "../../../jobs/task.js";
import { isUuid } from "../../../lib/ids.js";
import { alertJobKey } from "../../alerts/alert-job.js";
import { enrichmentJobKey } from "../../enrichment/enqueue-enrichment.js";

export type GivenUpKind = "enrichment" | "alert";

export async function retryGivenUp(
  deps: Pick<Deps, "db" | "clock">,
  tasks: ReadonlyArray<TaskDefinition<unknown>>,
  accountId: string,
  kind: string,
  id: string,
): Promise<"retried" | "not_found"> {
  if (!isUuid(id)) return "not_found";
  const db = deps.db.kysely;
  let jobKey: string;
  if (kind === "enrichment") {
    const owned = await db
      .selectFrom("customers")
      .innerJoin("stores", "stores.id", "customers.store_id")
      .select("customers.id")
      .where("customers.id", "=", id)
      .where("stores.account_id", "=", accountId)
      .where("customers.enrichment_status", "=", "failed")
      .executeTakeFirst();
    if (owned === undefined) return "not_found";
    jobKey = enrichmentJobKey(id);
  } else if (kind === "alert") {
    const owned = await db
      .selectFrom("alerts")
      .select("id")
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .where("status", "=", "failed")
      .executeTakeFirst();
    if (owned === undefined) return "not_found";
    jobKey = alertJobKey(id);
  } else {
    return "not_found";
  }
  const revived = await retryJobs(deps.db, tasks, { jobKey }, deps.clock.now());
  return revived.length > 0 ? "retried" : "not_found";
}
