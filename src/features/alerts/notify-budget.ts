/**
 * The `notify-budget` task (enqueued by billing/budget-notices.ts): one e-mail to the account's
 * owners when 80 % of the month's lookup budget is spent, and one when the budget stops paid
 * lookups. Sent by the alerts' SMTP sender and retried like an alert; the same Message-ID on
 * every retry.
 */
import type { z } from "zod";
import type { Deps } from "../../deps.js";
import type { JobOutcome, TaskDefinition } from "../../jobs/task.js";
import { type BudgetNoticePayload, NOTIFY_BUDGET } from "../billing/budget-notices.js";
import { getBudgetStatus } from "../billing/monthly-budget.js";
import type { AlertDelivery } from "./alert-deps.js";
import { ALERT_BACKOFF } from "./alert-job.js";
import { buildPlainEmail } from "./plain-email.js";

type Payload = z.infer<typeof BudgetNoticePayload>;

export function notifyBudget(delivery: AlertDelivery): TaskDefinition<Payload, Deps> {
  return {
    ...NOTIFY_BUDGET,
    backoff: ALERT_BACKOFF,
    handle: (deps, payload) => sendBudgetNotice(deps, delivery, payload),
  };
}

async function sendBudgetNotice(
  deps: Deps,
  delivery: AlertDelivery,
  p: Payload,
): Promise<JobOutcome> {
  const db = deps.db.kysely;
  const owners = await db
    .selectFrom("users")
    .select("email")
    .where("account_id", "=", p.accountId)
    .where("role", "=", "owner")
    .orderBy("email")
    .execute();
  if (owners.length === 0) return { kind: "done" };
  const status = await getBudgetStatus(db, p.accountId, p.month);
  if (status.budgetUsd === null) return { kind: "done" };
  const spent = `$${status.spentUsd} of $${status.budgetUsd}`;
  const message = buildPlainEmail({
    from: deps.config.alerts.from,
    to: owners[0]?.email ?? "",
    subject:
      p.level === 80
        ? `Velvet: 80 % of this month's lookup budget is spent (${spent})`
        : "Velvet: this month's lookup budget is reached; paid lookups have stopped",
    paragraphs:
      p.level === 80
        ? [
            `Your enrichment providers have billed ${spent} of your monthly lookup budget for ${p.month}.`,
            "When the budget is spent, Velvet stops the paid lookups until the month turns or the budget is raised; orders are still taken and customers scored on the free signals.",
          ]
        : [
            `Paid lookups for ${p.month} have reached your monthly budget of $${status.budgetUsd} ($${status.spentUsd} billed so far, $${status.reservedUsd} held by lookups in progress): Velvet has stopped the paid provider lookups.`,
            "Orders are still taken and new customers scored on the free signals; their explanation says the budget stopped the paid lookups. They are looked up fully when the month turns or when you raise the budget.",
          ],
    link: { url: `${deps.config.publicBaseUrl}/settings/billing`, label: "Open billing" },
  });
  const result = await delivery.sendMail({
    ...message,
    to: owners.map((o) => o.email),
    messageId: `<budget.${p.accountId}.${p.month}.${p.level}@velvet>`,
  });
  if (result.outcome === "delivered") return { kind: "done" };
  if (result.outcome === "failed") return { kind: "fail", error: result.error };
  return { kind: "retry", error: result.error };
}
