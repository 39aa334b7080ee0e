/**
 * Customers the monthly budget held back (scored on the free signals, `paid_lookups_deferred`)
 * are looked up fully once the budget allows: when it is raised or removed (accounts/settings/monthly-budget.ts)
 * and when the month turns (the periodic task below). Their enrichment job is enqueued again at
 * backfill priority, so live orders go first; the job asks only the providers that have not
 * answered (enrich-customer.ts), under a new reservation.
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import type { Database } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import { toMicros } from "../../lib/decimal.js";
import { monthOf } from "../billing/get-usage.js";
import { monthSpendMicros } from "../billing/month-spend.js";
import { enqueueEnrichment } from "./enqueue-enrichment.js";

/** Customers requeued per account and run; the next run takes the rest. */
const BATCH = 500;
export const RESUME_EVERY_MS = 15 * 60_000;

/** Requeues up to BATCH of the account's held-back customers if the budget has room; how many. */
export async function resumeDeferredLookups(
  trx: Transaction<Database>,
  accountId: string,
  now: number,
  maxAttempts: number,
): Promise<number> {
  if (!(await budgetHasRoom(trx, accountId, monthOf(now)))) return 0;
  const rows = await trx
    .selectFrom("enrichments")
    .innerJoin("customers", "customers.id", "enrichments.customer_id")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select(["enrichments.customer_id", "enrichments.paid_lookups_deferred"])
    .where("stores.account_id", "=", accountId)
    .where("enrichments.paid_lookups_deferred", "<>", 0)
    .limit(BATCH)
    .execute();
  for (const row of rows) {
    await enqueueEnrichment(trx, row.customer_id, now, maxAttempts, {
      // An imported history's customers stay historical: machines hear, people are not alerted.
      alerts: row.paid_lookups_deferred === 1,
      priority: "backfill",
      accountId,
    });
  }
  return rows.length;
}

async function budgetHasRoom(db: Kysely<Database>, accountId: string, month: string) {
  const row = await db
    .selectFrom("accounts")
    .leftJoin("budget_months", (join) =>
      join
        .onRef("budget_months.account_id", "=", "accounts.id")
        .on("budget_months.month", "=", month),
    )
    .select([
      "accounts.monthly_budget_usd",
      "accounts.closed_at",
      monthSpendMicros(accountId, month).as("spent_micros"),
      "reserved_micros",
    ])
    .where("accounts.id", "=", accountId)
    .executeTakeFirst();
  // A closed account spends nothing more.
  if (row === undefined || row.closed_at !== null) return false;
  if (row.monthly_budget_usd === null) return true;
  const used = Number(row.spent_micros ?? 0) + Number(row.reserved_micros ?? 0);
  return used < Number(toMicros(row.monthly_budget_usd));
}

/** Every 15 minutes: the accounts with held-back customers, each requeued if it has room. */
export function resumeDeferredLookupsTask(): TaskDefinition<Record<string, never>, Deps> {
  return {
    task: "resume-deferred-lookups",
    payload: z.object({}),
    periodic: { everyMs: RESUME_EVERY_MS },
    async handle(deps) {
      const accounts = await deps.db.kysely
        .selectFrom("enrichments")
        .innerJoin("customers", "customers.id", "enrichments.customer_id")
        .innerJoin("stores", "stores.id", "customers.store_id")
        .select("stores.account_id")
        .distinct()
        .where("enrichments.paid_lookups_deferred", "<>", 0)
        .execute();
      let requeued = 0;
      for (const { account_id } of accounts) {
        requeued += await deps.db.kysely
          .transaction()
          .execute((trx) =>
            resumeDeferredLookups(
              trx,
              account_id,
              deps.clock.now(),
              deps.config.enrichment.maxAttempts,
            ),
          );
      }
      if (requeued > 0) deps.jobs.notify();
      return { kind: "again", delayMs: RESUME_EVERY_MS };
    },
  };
}
