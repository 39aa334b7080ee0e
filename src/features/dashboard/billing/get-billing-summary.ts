/**
 * Settings → Billing: enrichments charged per month for the last 12 months (exact amounts: each
 * charge keeps the unit price it was made at, summed with the decimal helpers) and per day for
 * one month. One query over the account's (account_id, created_at) index, grouped by UTC day
 * and unit price; months and days are added up here.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../../../db/schema.js";
import { fromMicros, toMicros } from "../../../lib/decimal.js";
import { monthOf, monthRange } from "../../billing/get-usage.js";
import type { DayPoint } from "../html/bar-chart.js";

export const DAY_MS = 86_400_000;

export interface MonthUsage {
  month: string;
  enrichments: number;
  amountUsd: string;
  /** The distinct unit prices charged that month (one, except across a price change). */
  unitPricesUsd: string[];
}

export interface BillingSummary {
  months: MonthUsage[];
  days: DayPoint[];
}

/** The 12 months ending with the month of `now`, oldest first. */
export function lastTwelveMonths(now: number): string[] {
  const d = new Date(now);
  return Array.from({ length: 12 }, (_, i) =>
    monthOf(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - 11 + i, 1)),
  );
}

export async function getBillingSummary(
  db: Kysely<Database>,
  accountId: string,
  month: string,
  now: number,
): Promise<BillingSummary> {
  const months = lastTwelveMonths(now);
  const from = monthRange(months[0] as string).from;
  const rows = await db
    .selectFrom("usage_charges")
    .select([
      sql<number>`created_at / ${sql.lit(DAY_MS)}`.as("day"),
      "unit_price_usd",
      (eb) => eb.fn.countAll<number>().as("n"),
    ])
    .where("account_id", "=", accountId)
    .where("created_at", ">=", from)
    .groupBy([sql`created_at / ${sql.lit(DAY_MS)}`, "unit_price_usd"])
    .execute();

  const byMonth = new Map(months.map((m) => [m, { n: 0, micros: 0n, prices: new Set<string>() }]));
  const perDay = new Map<number, number>();
  for (const r of rows) {
    const day = Math.floor(Number(r.day));
    const n = Number(r.n);
    const m = byMonth.get(monthOf(day * DAY_MS));
    if (m) {
      m.n += n;
      m.micros += toMicros(r.unit_price_usd) * BigInt(n);
      m.prices.add(r.unit_price_usd);
    }
    perDay.set(day, (perDay.get(day) ?? 0) + n);
  }

  const range = monthRange(month);
  const firstDay = range.from / DAY_MS;
  const lastDay = Math.min(range.to / DAY_MS, Math.floor(now / DAY_MS) + 1) - 1;
  const days: DayPoint[] = [];
  for (let day = firstDay; day <= lastDay; day++) days.push({ day, value: perDay.get(day) ?? 0 });

  return {
    months: months.reverse().map((m) => {
      const u = byMonth.get(m) ?? { n: 0, micros: 0n, prices: new Set<string>() };
      return {
        month: m,
        enrichments: u.n,
        amountUsd: fromMicros(u.micros),
        unitPricesUsd: [...u.prices].sort(),
      };
    }),
    days,
  };
}
