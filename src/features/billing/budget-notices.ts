/**
 * Telling an account's owners about its monthly lookup budget, once per month and level: at
 * 80 % spent, and when the budget stops paid lookups (100 %). A flag on the month's row is
 * flipped by a conditional UPDATE in the transaction that enqueues the `notify-budget` job, so
 * concurrent workers enqueue one notice, not several. The job's handler (alerts/notify-budget.ts)
 * sends the e-mail; the dashboard shows a banner from the same flags (the session reads them).
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import { preparedQuery } from "../../db/prepared-query.js";
import type { Database } from "../../db/schema.js";
import { enqueueJob, jobOf } from "../../jobs/enqueue-job.js";
import { taskType } from "../../jobs/task.js";
import { toMicros } from "../../lib/decimal.js";
import { monthSpendMicros } from "./month-spend.js";

export const BudgetNoticePayload = z.object({
  accountId: z.string().min(1),
  month: z.string().regex(/^\d{4}-\d{2}$/),
  level: z.union([z.literal(80), z.literal(100)]),
});
export const NOTIFY_BUDGET = taskType("notify-budget", BudgetNoticePayload);

type Level = 80 | 100;
type Db = Kysely<Database> | Transaction<Database>;

/** Prepared once: it runs after every enrichment that spent under a budget (provider-spend.ts). */
const readBudgetMonth = preparedQuery(
  ["account_id", "month"],
  (db, v: { account_id: string; month: string }) =>
    db
      .selectFrom("budget_months")
      .innerJoin("accounts", "accounts.id", "budget_months.account_id")
      .select([
        "accounts.monthly_budget_usd",
        monthSpendMicros(v.account_id, v.month).as("spent_micros"),
        "notified_80",
        "notified_100",
      ])
      .where("budget_months.account_id", "=", v.account_id)
      .where("budget_months.month", "=", v.month),
);

/** After spending: the 80 % notice (and the 100 % one at the budget), each once a month. */
export async function noticeBudgetUse(
  trx: Db,
  accountId: string,
  month: string,
  now: number,
): Promise<void> {
  const row = await readBudgetMonth.executeTakeFirst(trx, { account_id: accountId, month });
  if (row === undefined || row.monthly_budget_usd === null) return;
  const budget = toMicros(row.monthly_budget_usd);
  const spent = BigInt(row.spent_micros);
  if (row.notified_80 === 0 && spent * 100n >= budget * 80n) {
    await noticeOnce(trx, accountId, month, 80, now);
  }
  if (row.notified_100 === 0 && spent >= budget) {
    await noticeOnce(trx, accountId, month, 100, now);
  }
}

/** The budget just stopped a paid lookup: the 100 % notice, once a month. */
export async function noticeBudgetStopped(
  db: Kysely<Database>,
  accountId: string,
  month: string,
  now: number,
): Promise<void> {
  await db.transaction().execute((trx) => noticeOnce(trx, accountId, month, 100, now));
}

async function noticeOnce(trx: Db, accountId: string, month: string, level: Level, now: number) {
  const column = level === 80 ? "notified_80" : "notified_100";
  const flipped = await trx
    .updateTable("budget_months")
    .set({ [column]: 1 })
    .where("account_id", "=", accountId)
    .where("month", "=", month)
    .where(column, "=", 0)
    .executeTakeFirst();
  if (flipped.numUpdatedRows === 0n) return;
  const payload = { accountId, month, level };
  const jobKey = `${NOTIFY_BUDGET.task}:${accountId}:${month}:${level}`;
  await enqueueJob(trx, jobOf(NOTIFY_BUDGET, payload, { jobKey, maxAttempts: 10 }), now);
}
