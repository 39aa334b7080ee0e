/**
 * How this account's enriched customers are spread over the score, to choose a threshold with:
 * one grouped read (at most 101 rows, one per score), everything else computed here.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../../db/schema.js";

export interface ScoreDistribution {
  /** Enriched customers with a score. */
  total: number;
  /** Customers per ten-point band: [0–9], [10–19], … [90–100]. */
  bands: number[];
  /** How many would be VIPs (score above) at each threshold from 0 to 100. */
  vipsAbove(threshold: number): number;
  /**
   * The lowest threshold at which at most `share` of the customers are VIPs and at least one
   * is; when even one customer is more than that share (a small store), the highest threshold
   * that still catches someone. Null when no threshold catches anyone (no customer, or every
   * score 0): a suggestion never catches nobody.
   */
  thresholdForShare(share: number): number | null;
}

export async function getScoreDistribution(
  db: Kysely<Database>,
  accountId: string,
): Promise<ScoreDistribution> {
  const rows = await db
    .selectFrom("enrichments")
    .innerJoin("customers", "customers.id", "enrichments.customer_id")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select(["enrichments.score", (eb) => eb.fn.countAll<string | number>().as("n")])
    .where("stores.account_id", "=", accountId)
    .where("enrichments.score", "is not", null)
    .groupBy("enrichments.score")
    .execute();
  return distributionOf(rows.map((r) => [Number(r.score), Number(r.n)]));
}

/** From (score, customers) pairs; exported for tests. */
export function distributionOf(
  counts: Array<[score: number, customers: number]>,
): ScoreDistribution {
  const perScore = new Array<number>(101).fill(0);
  for (const [score, n] of counts) {
    const s = Math.min(100, Math.max(0, Math.round(score)));
    perScore[s] = (perScore[s] ?? 0) + n;
  }
  // above[t] = customers scoring above t.
  const above = new Array<number>(101).fill(0);
  for (let t = 99; t >= 0; t--) above[t] = (above[t + 1] ?? 0) + (perScore[t + 1] ?? 0);
  const total = perScore.reduce((a, b) => a + b, 0);
  const bands = Array.from({ length: 10 }, (_, i) =>
    perScore.slice(i * 10, i === 9 ? 101 : i * 10 + 10).reduce((a, b) => a + b, 0),
  );
  return {
    total,
    bands,
    vipsAbove: (t) => above[Math.min(100, Math.max(0, t))] ?? 0,
    thresholdForShare(share) {
      for (let t = 0; t <= 100; t++) {
        const caught = above[t] ?? 0;
        if (caught > 0 && caught <= total * share) return t;
      }
      for (let t = 100; t >= 0; t--) if ((above[t] ?? 0) > 0) return t;
      return null;
    },
  };
}
