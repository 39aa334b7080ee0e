/**
 * Everything Velvet stores about one customer, as one JSON document (the answer to "show me
 * what you hold about me"): the customer, orders, the enrichment with every signal and the
 * merged profile, each provider's raw answer as received, the alerts sent about them with every
 * delivery attempt, what was handed to destinations, and the usage charge their enrichment
 * made: one section per holder in the privacy registry (privacy-registry.ts).
 */
import type { Kysely } from "kysely";
import { isoOrNull as iso } from "../../db/personal-data.js";
import type { Database } from "../../db/schema.js";
import { customerDetailsView } from "../customers/customer-views.js";
import type { PrivacyRegistry } from "./privacy-registry.js";

/** The customer, then each holder's sections, in the registry's order. */
export async function buildCustomerExport(
  db: Kysely<Database>,
  registry: PrivacyRegistry,
  customerId: string,
  now: number,
) {
  const c = await db
    .selectFrom("customers")
    .selectAll()
    .where("id", "=", customerId)
    .executeTakeFirstOrThrow();
  const document: { exportedAt: string | null; customer: object } & Record<string, unknown> = {
    exportedAt: iso(now),
    customer: {
      ...customerDetailsView(c),
      enrichmentStatus: c.enrichment_status,
      createdAt: iso(c.created_at),
      updatedAt: iso(c.updated_at),
    },
  };
  for (const holder of registry.holders)
    Object.assign(document, await holder.export?.(db, customerId));
  return document;
}

export type CustomerExport = Awaited<ReturnType<typeof buildCustomerExport>>;
