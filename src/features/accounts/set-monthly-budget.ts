/**
 * Setting or removing an account's monthly budget for paid provider lookups, audited with its
 * old and new value. In the same transaction the month's notices are reset (billing/budget-notices.ts)
 * and customers the budget held back are requeued when the new budget has room
 * (enrichment/resume-deferred-lookups.ts).
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { monthOf } from "../billing/get-usage.js";
import { resumeDeferredLookups } from "../enrichment/resume-deferred-lookups.js";

/** A budget as typed: a non-negative amount in USD with at most 2 decimals; "" removes it. */
export function parseBudget(text: string): { ok: true; budgetUsd: string | null } | { ok: false } {
  const v = text.trim().replace(/^\$/, "");
  if (v === "") return { ok: true, budgetUsd: null };
  if (!/^\d{1,9}(\.\d{1,2})?$/.test(v)) return { ok: false };
  return { ok: true, budgetUsd: v };
}

export const BUDGET_RULE = "a monthly budget is an amount in USD such as 50 or 49.99";

/** False when the account does not exist; the number of customers requeued otherwise. */
export async function setMonthlyBudget(
  db: Kysely<Database>,
  input: { accountId: string; budgetUsd: string | null; actor: AuditActor; maxAttempts: number },
  now: number,
): Promise<{ requeued: number } | false> {
  return db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom("accounts")
      .select("monthly_budget_usd")
      .where("id", "=", input.accountId)
      .executeTakeFirst();
    if (!before) return false;
    if (before.monthly_budget_usd === input.budgetUsd) return { requeued: 0 };
    await trx
      .updateTable("accounts")
      .set({ monthly_budget_usd: input.budgetUsd })
      .where("id", "=", input.accountId)
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "monthly_budget.changed",
        details: { from: before.monthly_budget_usd, to: input.budgetUsd },
      },
      now,
    );
    // A new budget starts its notices afresh: the banner goes, and 80 % of it is told again.
    await trx
      .updateTable("budget_months")
      .set({ notified_80: 0, notified_100: 0 })
      .where("account_id", "=", input.accountId)
      .where("month", "=", monthOf(now))
      .execute();
    const requeued = await resumeDeferredLookups(trx, input.accountId, now, input.maxAttempts);
    return { requeued };
  });
}
