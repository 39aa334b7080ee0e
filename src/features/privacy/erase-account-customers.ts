/**
 * The erasure half of closing an account: its customers are erased as `velvet customer forget`
 * erases one (erase-customer-rows.ts), one transaction per customer, in batches. Runs as the
 * `erase-closed-account` job (from the dashboard) or to the end inside `velvet account delete`.
 */
import type { z } from "zod";
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import { ERASE_ACCOUNT } from "./close-account.js";
import { eraseCustomerRows } from "./erase-customer-rows.js";
import type { PrivacyDeps } from "./privacy-registry.js";
import { inBatches, nextTurn } from "./retention/batches.js";
import { scrubDatabaseFiles } from "./scrub-database-files.js";

const CUSTOMERS_PER_BATCH = 50;

export async function eraseAccountCustomers(
  deps: Pick<Deps, "db" | "clock" | "config"> & PrivacyDeps,
  accountId: string,
  options: { signal?: AbortSignal; budgetMs?: number } = {},
): Promise<{ erased: number; more: boolean }> {
  const db = deps.db.kysely;
  const result = await inBatches(
    async () => {
      const ids = (
        await db
          .selectFrom("customers")
          .innerJoin("stores", "stores.id", "customers.store_id")
          .select("customers.id")
          .where("stores.account_id", "=", accountId)
          .limit(CUSTOMERS_PER_BATCH)
          .execute()
      ).map((c) => c.id);
      for (const id of ids) {
        await db
          .transaction()
          .execute((trx) => eraseCustomerRows(trx, deps, id, "account_closed", deps.clock.now()));
        await nextTurn();
      }
      return ids.length;
    },
    { size: CUSTOMERS_PER_BATCH, ...options },
  );
  if (result.handled > 0 && !result.more) await scrubDatabaseFiles(deps.db);
  return { erased: result.handled, more: result.more };
}

export function eraseClosedAccountTask(): TaskDefinition<
  z.infer<typeof ERASE_ACCOUNT.payload>,
  Deps & PrivacyDeps
> {
  return {
    ...ERASE_ACCOUNT,
    async handle(deps, payload, ctx) {
      const { more } = await eraseAccountCustomers(deps, payload.accountId, { signal: ctx.signal });
      return more ? { kind: "again", delayMs: 0 } : { kind: "done" };
    },
  };
}
