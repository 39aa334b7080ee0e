/**
 * A list of customers taken away (`velvet customer list`, the Customers page's "Download CSV")
 * is personal data leaving Velvet in bulk: the audit trail records who took it, in which format
 * and with which filters. The search text is not recorded (it may be a person's e-mail), only
 * that there was one.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import type { CustomerListFormat } from "./customer-list-chunks.js";
import type { CustomerFilter } from "./filter-customers.js";

export function describeCustomerFilter(f: CustomerFilter): string {
  const parts = [
    f.vip ? "VIPs only" : null,
    f.tier ? `tier ${f.tier}` : null,
    f.status ? `status ${f.status}` : null,
    f.q ? "a search" : null,
  ].filter((p): p is string => p !== null);
  return parts.length === 0 ? "none" : parts.join(", ");
}

export async function recordCustomerList(
  db: Kysely<Database>,
  input: {
    accountId: string;
    actor: AuditActor;
    format: CustomerListFormat;
    filter: CustomerFilter;
  },
  now: number,
): Promise<void> {
  await recordAuditEvent(
    db,
    {
      accountId: input.accountId,
      actor: input.actor,
      action: "customers.listed",
      details: { format: input.format, filters: describeCustomerFilter(input.filter) },
    },
    now,
  );
}
