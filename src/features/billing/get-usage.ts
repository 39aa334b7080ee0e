/**
 * Usage for one calendar month (UTC): how many enrichments were charged and what they cost.
 * Each charge row records the unit price in force when it was made, so a price change never
 * reprices the past; the amount is the exact sum of those prices.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";

export interface Usage {
  month: string;
  enrichments: number;
  unitPriceUsd: string;
  amountUsd: string;
}

const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonth(value: string): boolean {
  return MONTH_RE.test(value);
}

export function monthOf(ms: number): string {
  return new Date(ms).toISOString().slice(0, 7);
}

export function monthRange(month: string): { from: number; to: number } {
  const m = MONTH_RE.exec(month);
  if (!m) throw new RangeError(`not a month (YYYY-MM): ${month}`);
  const year = Number(m[1]);
  const index = Number(m[2]) - 1;
  return { from: Date.UTC(year, index, 1), to: Date.UTC(year, index + 1, 1) };
}

export async function getUsage(
  db: Kysely<Database>,
  accountId: string,
  month: string,
  currentUnitPriceUsd: string,
): Promise<Usage> {
  const { from, to } = monthRange(month);
  const rows = await db
    .selectFrom("usage_charges")
    .select(["unit_price_usd", (eb) => eb.fn.countAll<number>().as("count")])
    .where("account_id", "=", accountId)
    .where("created_at", ">=", from)
    .where("created_at", "<", to)
    .groupBy("unit_price_usd")
    .execute();
  let enrichments = 0;
  let amount = 0n;
  for (const r of rows) {
    const count = Number(r.count);
    enrichments += count;
    amount += toMicros(r.unit_price_usd) * BigInt(count);
  }
  const unitPriceUsd = rows.length === 1 && rows[0] ? rows[0].unit_price_usd : currentUnitPriceUsd;
  return { month, enrichments, unitPriceUsd, amountUsd: fromMicros(amount) };
}
