/**
 * Precision month by month: for each of the last HISTORY_MONTHS calendar months (UTC), the
 * verdicts on customers scored that month who are VIPs at the given threshold (score above it),
 * right of judged, with the 95 % Wilson interval. The same rules as precision.ts (sample
 * customers never count); one grouped read over the account's verdicts (≤ 2 rows a day).
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../../db/schema.js";
import { monthOf } from "../billing/get-usage.js";
import { type Interval, wilsonInterval } from "./wilson-interval.js";

export const HISTORY_MONTHS = 6;
const DAY_MS = 86_400_000;

export interface MonthPrecision {
  /** "2025-06". */
  month: string;
  judged: number;
  right: number;
  /** right / judged; null when nothing that month is judged. */
  precision: number | null;
  interval: Interval | null;
}

/** The last `count` months ending with the month of `now`, oldest first. */
function lastMonths(now: number, count: number): string[] {
  const d = new Date(now);
  return Array.from({ length: count }, (_, i) =>
    monthOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - count + 1 + i, 1)),
  );
}

export async function getPrecisionHistory(
  db: Kysely<Database>,
  accountId: string,
  threshold: number,
  now: number,
): Promise<MonthPrecision[]> {
  const months = lastMonths(now, HISTORY_MONTHS);
  const first = new Date(`${months[0]}-01T00:00:00Z`).getTime();
  const day = sql<number>`enrichments.enriched_at / ${sql.lit(DAY_MS)}`;
  const rows = await db
    .selectFrom("vip_verdicts")
    .innerJoin("enrichments", "enrichments.customer_id", "vip_verdicts.customer_id")
    .innerJoin("customers", "customers.id", "vip_verdicts.customer_id")
    .select([day.as("day"), "vip_verdicts.verdict", (eb) => eb.fn.countAll<number>().as("n")])
    .where("vip_verdicts.account_id", "=", accountId)
    .where("enrichments.enriched_at", ">=", first)
    .where("enrichments.score", ">", threshold)
    .where("customers.sample", "=", 0)
    .groupBy([sql`enrichments.enriched_at / ${sql.lit(DAY_MS)}`, "vip_verdicts.verdict"])
    .execute();
  const tally = new Map(months.map((m) => [m, { judged: 0, right: 0 }]));
  for (const r of rows) {
    const t = tally.get(monthOf(Math.floor(Number(r.day)) * DAY_MS));
    if (!t) continue;
    t.judged += Number(r.n);
    if (r.verdict === "right") t.right += Number(r.n);
  }
  return months.map((month) => {
    const { judged, right } = tally.get(month) ?? { judged: 0, right: 0 };
    return {
      month,
      judged,
      right,
      precision: judged === 0 ? null : right / judged,
      interval: wilsonInterval(right, judged),
    };
  });
}
