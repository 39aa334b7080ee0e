/**
 * A VIP decision changed by a re-judge, in the words the customer's page, the CLI and the
 * destinations show: "now a VIP: $3,020 over 21 orders", "no longer a VIP: $1,240 over 9 orders
 * (score 64, threshold 70)". The spend is the lifetime spend the score read (whole units of the
 * customer's main currency); without one, the score and the line say it.
 */
import { plural } from "../../../lib/plural.js";
import type { LifetimeSpend } from "../offline-signals.js";

export function vipChangeReason(
  promoted: boolean,
  lifetime: LifetimeSpend,
  score: number,
  threshold: number,
): string {
  const head = promoted ? "now a VIP" : "no longer a VIP";
  const scoreLine = `score ${score}, threshold ${threshold}`;
  if (lifetime.kind === "none") return `${head} (${scoreLine})`;
  const spend = `${wholeMoney(lifetime.total, lifetime.currency)} over ${plural(lifetime.orders, "order")}`;
  return promoted ? `${head}: ${spend}` : `${head}: ${spend} (${scoreLine})`;
}

/** "$3,020", "XQQ 10" (rounded to the whole unit); "10 abc" for what is not a currency code. */
export function wholeMoney(amount: string, currency: string): string {
  const value = Math.round(Number(amount));
  try {
    return new Intl.NumberFormat("en-US", {
      style: "currency",
      currency,
      maximumFractionDigits: 0,
      minimumFractionDigits: 0,
    }).format(value);
  } catch {
    return `${value} ${currency}`;
  }
}
