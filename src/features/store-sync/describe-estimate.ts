/**
 * A connection's dry run in words (the command line's `--dry-run` and the dashboard's "Preview
 * cost"): the window, its orders, the new customers and what they cost. `fewerDays` is how the
 * reader asks for a shorter backfill where they are.
 */
import { plural } from "../../lib/plural.js";
import { chargeLine, providerCostLine } from "../enrichment/describe-lookup-cost.js";
import type { BackfillEstimate } from "./estimate-backfill.js";

const n = (count: number) => count.toLocaleString("en-US");

export function estimateLines(e: BackfillEstimate, fewerDays: string): string[] {
  if (e.reconnect) {
    return [
      `${e.shop} is connected already: connecting again replaces its credentials and the sync carries on where it was, with no backfill to read.`,
    ];
  }
  const orders =
    e.orders.precision === "at_least"
      ? `at least ${plural(e.orders.count, "order")}`
      : plural(e.orders.count, "order");
  if (e.backfillDays === 0) {
    return [
      "The credentials work. No past orders would be read: only orders from now on, at no cost now.",
    ];
  }
  const lines = [
    `The credentials work. The backfill would read the orders updated in the last ${plural(e.backfillDays ?? 0, "day")} (since ${utcMinute(e.since)}): ${orders}.`,
  ];
  if (e.backfillCut !== null) {
    lines.push(
      `Only ${e.backfillDays} of the ${e.backfillCut.asked} days asked: ${e.backfillCut.reason}.`,
    );
  }
  lines.push(newCustomersLine(e, fewerDays));
  if (e.newCustomersPrecision === "exact") {
    const skips = Object.entries(e.skipReasons ?? {});
    lines.push(
      skips.length === 0
        ? "Not taken: none (no test, unpaid or draft orders in the window)."
        : `Not taken (left out of the figures): ${skips.map(([reason, count]) => `${reason} ${n(count)}`).join(", ")}.`,
    );
    if ((e.alreadyStored ?? 0) > 0)
      lines.push(`Already stored (no new charge): ${n(e.alreadyStored ?? 0)} orders.`);
  }
  lines.push(chargeLine(e, false), providerCostLine(e));
  return lines;
}

/** `2026-08-27 17:47 UTC`. */
function utcMinute(iso: string | null): string {
  return iso === null ? "now" : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

function newCustomersLine(e: BackfillEstimate, fewerDays: string): string {
  switch (e.newCustomersPrecision) {
    case "exact":
      return `New customers: ${n(e.newCustomers)} (every order read; customers the store already holds left out).`;
    case "at_most":
      return `New customers: at most ${n(e.newCustomers)} (an upper bound: one per order; test and unpaid orders included, customers the store already holds not left out; ${fewerDays} gives an exact count).`;
    default:
      return `New customers: unknown; the figures below are for ${n(e.newCustomers)}, one per order counted, and the backfill can cost more (the platform stopped counting; ${fewerDays} gives a figure).`;
  }
}
