/**
 * "Show me what you hold about me": one customer's export document (customer-export-document.ts),
 * recorded in the audit trail as exported (by id). Null when the account has no such customer.
 */
import type { Deps } from "../../deps.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import type { CustomerLookup } from "../customers/get-customer-report.js";
import { buildCustomerExport, type CustomerExport } from "./customer-export-document.js";
import { findAccountCustomerId } from "./find-account-customer.js";
import type { PrivacyDeps } from "./privacy-registry.js";

export async function exportCustomer(
  deps: Pick<Deps, "db" | "clock"> & PrivacyDeps,
  input: { accountId: string; lookup: CustomerLookup; actor: AuditActor },
): Promise<CustomerExport | null> {
  const now = deps.clock.now();
  // One snapshot: the document and its audit record are read and written together.
  return deps.db.kysely.transaction().execute(async (trx) => {
    const customerId = await findAccountCustomerId(trx, input.accountId, input.lookup);
    if (customerId === null) return null;
    const document = await buildCustomerExport(trx, deps.privacy, customerId, now);
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "customer.exported",
        subject: customerId,
      },
      now,
    );
    return document;
  });
}
