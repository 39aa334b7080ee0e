/**
 * Provider data retention: providers' raw answers older than PROVIDER_DATA_RETENTION_DAYS are
 * removed (`raw` set to null, `raw_cleared_at` set), a batch at a time. What the answer was
 * used for stays: the normalised profile fragment, the outcome and status, the merged profile
 * and the score's explanation on the enrichment.
 */
import type { Deps } from "../../../deps.js";
import { scrubDatabaseFiles } from "../scrub-database-files.js";
import { BATCH_SIZE, inBatches } from "./batches.js";

const DAY_MS = 86_400_000;

export async function clearOldProviderAnswers(
  deps: Pick<Deps, "db" | "clock" | "config">,
  signal?: AbortSignal,
): Promise<{ cleared: number; more: boolean }> {
  const db = deps.db.kysely;
  const cutoff = deps.clock.now() - deps.config.retention.providerDataDays * DAY_MS;
  const result = await inBatches(
    async () => {
      const now = deps.clock.now();
      return db.transaction().execute(async (trx) => {
        const ids = (
          await trx
            .selectFrom("provider_results")
            .select("id")
            .where("fetched_at", "<", cutoff)
            .where("raw", "is not", null)
            .orderBy("fetched_at")
            .limit(BATCH_SIZE)
            .execute()
        ).map((r) => r.id);
        if (ids.length === 0) return 0;
        await trx
          .updateTable("provider_results")
          .set({ raw: null, raw_cleared_at: now })
          .where("id", "in", ids)
          .execute();
        return ids.length;
      });
    },
    { size: BATCH_SIZE, signal },
  );
  if (result.handled > 0) await scrubDatabaseFiles(deps.db);
  return { cleared: result.handled, more: result.more };
}
