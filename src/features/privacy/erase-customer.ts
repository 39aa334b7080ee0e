/**
 * "Delete everything you hold about me": erases one customer of an account, in one
 * transaction with its audit record, then scrubs the database files (scrub-database-files.ts).
 * Null when the account has no such customer (another account's customer included).
 *
 * A later order with the same e-mail makes a new customer: new id, new enrichment, new charge.
 * The erased customer's order ids are kept as keyed hashes (erase-customer-rows.ts does it for
 * every erasure), so that a store sync or a file import that meets one of those orders again
 * does not take it.
 */
import type { Deps } from "../../deps.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import type { CustomerLookup } from "../customers/get-customer-report.js";
import { type ErasedCounts, eraseCustomerRows } from "./erase-customer-rows.js";
import { findAccountCustomerId } from "./find-account-customer.js";
import type { PrivacyDeps } from "./privacy-registry.js";
import { scrubDatabaseFiles } from "./scrub-database-files.js";

export interface ErasedCustomer {
  customerId: string;
  erased: ErasedCounts;
  /** False only on SQLite when a long reader kept the WAL from being emptied right away. */
  walCleared: boolean;
}

export async function eraseCustomer(
  deps: Pick<Deps, "db" | "clock" | "config"> & PrivacyDeps,
  input: { accountId: string; lookup: CustomerLookup; actor: AuditActor },
): Promise<ErasedCustomer | null> {
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    const customerId = await findAccountCustomerId(trx, input.accountId, input.lookup);
    if (customerId === null) return null;
    const erased = await eraseCustomerRows(
      trx,
      deps,
      customerId,
      "erasure_request",
      deps.clock.now(),
    );
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "customer.erased",
        subject: customerId,
        details: { ...erased },
      },
      deps.clock.now(),
    );
    return { customerId, erased };
  });
  if (result === null) return null;
  const { walCleared } = await scrubDatabaseFiles(deps.db);
  return { ...result, walCleared };
}
