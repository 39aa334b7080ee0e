/**
 * Writes of the enrichment's lifecycle. The result, the customer's status and (for a VIP) the
 * alert jobs are one transaction: no VIP can be stored without its alerts, nor alerted twice.
 */
import type { Deps } from "../../deps.js";
import { enqueueVipAlerts } from "../alerts/enqueue-vip-alerts.js";
import { isVip } from "./score/compute-score.js";
import type { ScoredCustomer } from "./score-customer.js";

export async function markEnrichmentStarted(
  deps: Pick<Deps, "db" | "clock">,
  customerId: string,
  attempt: number,
) {
  const now = deps.clock.now();
  // A transaction of one statement: on SQLite it joins the group commit (db/sqlite-driver.ts).
  await deps.db.kysely.transaction().execute((trx) =>
    trx
      .insertInto("enrichments")
      .values({ customer_id: customerId, attempts: attempt, started_at: now, updated_at: now })
      .onConflict((oc) =>
        oc
          .column("customer_id")
          .doUpdateSet({ attempts: attempt, started_at: now, updated_at: now }),
      )
      .execute(),
  );
}

/** Stores the result; answers whether the customer is a VIP (alerts were then enqueued). */
export async function saveEnrichmentResult(
  deps: Pick<Deps, "db" | "clock" | "alerts">,
  customerId: string,
  scored: ScoredCustomer,
  providerErrors: string | null,
): Promise<boolean> {
  return deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const owner = await trx
      .selectFrom("customers")
      .innerJoin("stores", "stores.id", "customers.store_id")
      .innerJoin("accounts", "accounts.id", "stores.account_id")
      .select(["accounts.id as account_id", "accounts.vip_threshold"])
      .where("customers.id", "=", customerId)
      .executeTakeFirstOrThrow();
    // The threshold in force now decides; changing it later does not rewrite this decision.
    const vip = isVip(scored.score, owner.vip_threshold);
    await trx
      .updateTable("enrichments")
      .set({
        score: scored.score,
        vip: vip ? 1 : 0,
        threshold: owner.vip_threshold,
        signals: JSON.stringify(scored.signals),
        profile: JSON.stringify(scored.profile),
        last_error: providerErrors,
        enriched_at: now,
        updated_at: now,
      })
      .where("customer_id", "=", customerId)
      .execute();
    await trx
      .updateTable("customers")
      .set({ enrichment_status: "enriched", updated_at: now })
      .where("id", "=", customerId)
      .execute();
    if (vip) {
      await enqueueVipAlerts(
        trx,
        {
          accountId: owner.account_id,
          customerId,
          score: scored.score,
          threshold: owner.vip_threshold,
        },
        now,
        { emailEnabled: deps.alerts.emailEnabled },
      );
    }
    return vip;
  });
}

/** After the last attempt: `failed`, keeping what was gathered and why it stopped. */
export async function markEnrichmentFailed(
  deps: Pick<Deps, "db" | "clock">,
  customerId: string,
  error: string,
) {
  await deps.db.kysely.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await trx
      .updateTable("customers")
      .set({ enrichment_status: "failed", updated_at: now })
      .where("id", "=", customerId)
      .where("enrichment_status", "=", "pending")
      .execute();
    await trx
      .insertInto("enrichments")
      .values({ customer_id: customerId, last_error: error, updated_at: now })
      .onConflict((oc) =>
        oc.column("customer_id").doUpdateSet({ last_error: error, updated_at: now }),
      )
      .execute();
  });
}
