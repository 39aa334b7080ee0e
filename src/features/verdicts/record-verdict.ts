/**
 * Records a merchant's verdict on a VIP: one row per customer (the latest wins: a person may
 * change their mind), audited in the same transaction. Only a customer whose enrichment made
 * them a VIP can be judged; anyone else is refused with NOT_A_VIP_MESSAGE.
 */
import type { Kysely } from "kysely";
import type { Database, VerdictSource, VerdictValue } from "../../db/schema.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";

export const NOT_A_VIP_MESSAGE =
  "Verdicts are for VIPs only: this customer's enrichment did not make them a VIP.";

export interface VerdictInput {
  accountId: string;
  customerId: string;
  verdict: VerdictValue;
  source: VerdictSource;
  /** The dashboard user giving it; null from an alert's link or the command line. */
  givenBy: string | null;
  actor: AuditActor;
}

export type VerdictOutcome =
  | { kind: "recorded"; customerId: string; verdict: VerdictValue; givenAt: number }
  | { kind: "not_found" }
  | { kind: "not_vip" };

export async function recordVerdict(
  db: Kysely<Database>,
  input: VerdictInput,
  now: number,
): Promise<VerdictOutcome> {
  return db.transaction().execute(async (trx) => {
    const customer = await trx
      .selectFrom("customers")
      .innerJoin("stores", "stores.id", "customers.store_id")
      .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
      .select(["customers.id", "enrichments.vip"])
      .where("customers.id", "=", input.customerId)
      .where("stores.account_id", "=", input.accountId)
      .executeTakeFirst();
    if (!customer) return { kind: "not_found" } as const;
    if (customer.vip !== 1) return { kind: "not_vip" } as const;
    const row = {
      account_id: input.accountId,
      verdict: input.verdict,
      source: input.source,
      given_by: input.givenBy,
      given_at: now,
    };
    await trx
      .insertInto("vip_verdicts")
      .values({ customer_id: customer.id, ...row })
      .onConflict((oc) => oc.column("customer_id").doUpdateSet(row))
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "customer.verdict_given",
        subject: customer.id,
        details: { verdict: input.verdict, source: input.source },
      },
      now,
    );
    return { kind: "recorded", customerId: customer.id, verdict: input.verdict, givenAt: now };
  });
}
