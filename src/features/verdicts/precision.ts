/**
 * How often the merchant's verdicts say the VIPs were right, at the account's threshold, and
 * which threshold would have done better: one function for Settings → Alerts and
 * `velvet alerts precision`. Glossary:
 * - window: customers scored (enriched) in the last PRECISION_WINDOW_DAYS days; sample
 *   customers never count.
 * - VIP at threshold t: current score above t (the rule enrichment decides by).
 * - judged at t: VIPs at t that have a verdict; right and wrong count their verdicts.
 * - precision at t: right / judged, with its 95 % Wilson interval (wilson-interval.ts).
 * - suggested threshold: once the window holds MIN_VERDICTS_FOR_SUGGESTION verdicts, the
 *   lowest t (so the one keeping the most VIPs) whose precision is at least TARGET_PRECISION,
 *   looking no lower than just below the lowest judged score: below it nobody was judged, so
 *   nothing is known of what a lower threshold would add; and resting on at least
 *   MIN_JUDGED_AT_SUGGESTION judged VIPs above t (2 right of 2 says little). Null when no t
 *   reaches the target.
 */
import type { Kysely } from "kysely";
import type { Database, VerdictValue } from "../../db/schema.js";
import { type Interval, wilsonInterval } from "./wilson-interval.js";

export const PRECISION_WINDOW_DAYS = 90;
export const MIN_VERDICTS_FOR_SUGGESTION = 20;
export const TARGET_PRECISION = 0.9;
/** Judged VIPs above a suggested threshold, at least: fewer say too little to go on. */
export const MIN_JUDGED_AT_SUGGESTION = 10;

export interface Precision {
  threshold: number;
  judged: number;
  right: number;
  wrong: number;
  /** right / judged; null when nothing is judged at this threshold. */
  precision: number | null;
  interval: Interval | null;
  suggestedThreshold: number | null;
  /** Verdicts on customers scored in the window, at any score (what the suggestion needs). */
  verdictsInWindow: number;
}

export interface JudgedScore {
  score: number;
  verdict: VerdictValue;
}

export function precisionAt(judged: readonly JudgedScore[], threshold: number) {
  const vips = judged.filter((j) => j.score > threshold);
  const right = vips.filter((j) => j.verdict === "right").length;
  return {
    judged: vips.length,
    right,
    wrong: vips.length - right,
    precision: vips.length === 0 ? null : right / vips.length,
    interval: wilsonInterval(right, vips.length),
  };
}

export function suggestThreshold(judged: readonly JudgedScore[]): number | null {
  if (judged.length < MIN_VERDICTS_FOR_SUGGESTION) return null;
  const lowest = Math.min(...judged.map((j) => j.score));
  for (let t = Math.max(0, lowest - 1); t < 100; t++) {
    const at = precisionAt(judged, t);
    if (at.judged < MIN_JUDGED_AT_SUGGESTION) return null;
    if (at.precision !== null && at.precision >= TARGET_PRECISION) return t;
  }
  return null;
}

/** The precision of the account's recent VIPs from its verdicts (pure: see computePrecision). */
export function computePrecision(judged: readonly JudgedScore[], threshold: number): Precision {
  return {
    threshold,
    ...precisionAt(judged, threshold),
    suggestedThreshold: suggestThreshold(judged),
    verdictsInWindow: judged.length,
  };
}

export async function getPrecision(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<Precision | null> {
  const account = await db
    .selectFrom("accounts")
    .select("vip_threshold")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!account) return null;
  const since = now - PRECISION_WINDOW_DAYS * 24 * 3600_000;
  const rows = await db
    .selectFrom("vip_verdicts")
    .innerJoin("enrichments", "enrichments.customer_id", "vip_verdicts.customer_id")
    .innerJoin("customers", "customers.id", "vip_verdicts.customer_id")
    .select(["enrichments.score", "vip_verdicts.verdict"])
    .where("vip_verdicts.account_id", "=", accountId)
    .where("enrichments.enriched_at", ">=", since)
    .where("enrichments.score", "is not", null)
    .where("customers.sample", "=", 0)
    .execute();
  const judged = rows.map((r) => ({ score: Number(r.score), verdict: r.verdict }));
  return computePrecision(judged, account.vip_threshold);
}
