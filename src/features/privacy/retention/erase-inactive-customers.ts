/**
 * Customer retention (optional, CUSTOMER_RETENTION_DAYS): a customer with no order in that many
 * days (nor created within them) is erased exactly as `velvet customer forget` would, one
 * customer per transaction, each recorded in their account's audit trail with the system as
 * the actor; their order ids are remembered, so a sync or import does not bring them back.
 */
import type { Deps } from "../../../deps.js";
import { systemActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";
import { eraseCustomerRows } from "../erase-customer-rows.js";
import type { PrivacyDeps } from "../privacy-registry.js";
import { scrubDatabaseFiles } from "../scrub-database-files.js";
import { inBatches, nextTurn } from "./batches.js";

const DAY_MS = 86_400_000;
const CUSTOMERS_PER_BATCH = 50;
export const RETENTION_ACTOR = systemActor("retention");

export async function eraseInactiveCustomers(
  deps: Pick<Deps, "db" | "clock" | "config"> & PrivacyDeps,
  signal?: AbortSignal,
): Promise<{ erased: number; more: boolean }> {
  const days = deps.config.retention.customerDays;
  if (days === null) return { erased: 0, more: false };
  const db = deps.db.kysely;
  const cutoff = deps.clock.now() - days * DAY_MS;
  const result = await inBatches(
    async () => {
      const stale = await db
        .selectFrom("customers")
        .innerJoin("stores", "stores.id", "customers.store_id")
        .select(["customers.id", "stores.account_id"])
        .where("customers.created_at", "<", cutoff)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              // Any order, cancelled or refunded ones too: it is the customer's latest dealing
              // with the store, and the merchant may still need it (a refund to settle).
              selectFrom("orders")
                .select("orders.id")
                .whereRef("orders.customer_id", "=", "customers.id")
                .where("orders.created_at", ">=", cutoff),
            ),
          ),
        )
        .orderBy("customers.created_at")
        .limit(CUSTOMERS_PER_BATCH)
        .execute();
      for (const customer of stale) {
        await db.transaction().execute(async (trx) => {
          const erased = await eraseCustomerRows(
            trx,
            deps,
            customer.id,
            "retention",
            deps.clock.now(),
          );
          const details = { ...erased, reason: `no order in ${days} days` };
          await recordAuditEvent(
            trx,
            {
              accountId: customer.account_id,
              actor: RETENTION_ACTOR,
              action: "customer.erased",
              subject: customer.id,
              details,
            },
            deps.clock.now(),
          );
        });
        await nextTurn();
      }
      return stale.length;
    },
    { size: CUSTOMERS_PER_BATCH, signal },
  );
  if (result.handled > 0) await scrubDatabaseFiles(deps.db);
  return { erased: result.handled, more: result.more };
}
