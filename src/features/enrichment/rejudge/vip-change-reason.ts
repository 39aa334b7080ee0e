/**
 * A VIP decision changed by a re-judge, in the words the customer's page, the CLI and the
 * destinations show: "now a VIP: $3,020.00 over 21 orders", "no longer a VIP: $1,240.00 over 9
 * orders (score 64, threshold 70)". The spend is the lifetime spend the score read, in the one
 * money format (lib/money.ts); without one, the score and the line say it.
 */
import { formatMoney } from "../../../lib/money.js";
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
  const spend = `${formatMoney(lifetime.total, lifetime.currency)} over ${plural(lifetime.orders, "order")}`;
  return promoted ? `${head}: ${spend}` : `${head}: ${spend} (${scoreLine})`;
}
