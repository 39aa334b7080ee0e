/**
 * Every weight of the VIP score, in one place. docs/scoring.md ("The VIP score") is the same table in prose; keep
 * them together when changing either.
 *
 * How the weights were chosen:
 * - A customer is a VIP when the score is ABOVE the account's threshold (default 70). One strong
 *   piece of evidence alone stays below it; two strong ones, or one strong and a few moderate
 *   ones, pass it. Example: a founder (35) of a 500-person company (8) ordering $900 (18) from a
 *   ZIP with a $250k+ median income (25) with a company address (5) scores 91; a gmail shopper
 *   with a $40 order from a median ZIP and no provider data scores 0.
 * - Evidence about the person (role, wealth, reach) weighs more than evidence about their area
 *   or a single order, which can be a gift or a one-off.
 * - A fresh install runs with offline signals only; a large first order from a wealthy area still
 *   makes a VIP there: $2,500+ (30), top 1% of online orders (15: a store's own orders once it has
 *   20, typical online orders before), a $250k+ ZIP (25), company address (5) = 75.
 * - Bands, not formulas: each band is a sentence a merchant can read ("$500 or more: 18").
 * - Points are never negative, so the raw sum is at least 0; it can exceed 100 (many strong
 *   signals together), and is then capped at 100 by an explicit "capped" signal (compute-score).
 */
import type { Seniority } from "../providers/provider.js";

/** A threshold ladder, highest first: the first band whose `atLeast` the value reaches wins. */
export interface Band {
  atLeast: number;
  points: number;
}

export const MAX_SCORE = 100;
export const MIN_SCORE = 0;

/** Decision power over spending and the strongest single predictor of a high-value customer. */
export const SENIORITY_POINTS: Record<Seniority, number> = {
  c_level: 35,
  founder: 35,
  owner: 25,
  partner: 25,
  vp: 25,
  director: 15,
  manager: 5,
  senior: 0,
  entry: 0,
};

/** Employer size: modest on its own (it says little about this person), adds to a senior role. */
export const COMPANY_EMPLOYEES_BANDS: Band[] = [
  { atLeast: 1000, points: 10 },
  { atLeast: 500, points: 8 },
  { atLeast: 100, points: 5 },
  { atLeast: 20, points: 2 },
];

/** Employer revenue (USD a year): same reasoning as size; the two usually agree. */
export const COMPANY_REVENUE_BANDS: Band[] = [
  { atLeast: 1_000_000_000, points: 10 },
  { atLeast: 100_000_000, points: 8 },
  { atLeast: 10_000_000, points: 5 },
  { atLeast: 1_000_000, points: 2 },
];

/** Inferred personal salary (USD, the band's lower bound). US median earnings are ~$60k. */
export const INFERRED_SALARY_BANDS: Band[] = [
  { atLeast: 300_000, points: 25 },
  { atLeast: 200_000, points: 18 },
  { atLeast: 150_000, points: 12 },
  { atLeast: 100_000, points: 6 },
];

/** Household income from public records. The US median is ~$78k; $500k+ is the top ~1%. */
export const HOUSEHOLD_INCOME_BANDS: Band[] = [
  { atLeast: 500_000, points: 30 },
  { atLeast: 250_000, points: 20 },
  { atLeast: 150_000, points: 10 },
  { atLeast: 100_000, points: 4 },
];

/** Net worth: wealth is what VIP service is about, so the top band matches C-level. */
export const NET_WORTH_BANDS: Band[] = [
  { atLeast: 10_000_000, points: 35 },
  { atLeast: 5_000_000, points: 25 },
  { atLeast: 1_000_000, points: 15 },
  { atLeast: 500_000, points: 5 },
];

/** Home value. The US median is ~$420k; mostly already reflected in net worth, so lighter. */
export const HOME_VALUE_BANDS: Band[] = [
  { atLeast: 2_000_000, points: 15 },
  { atLeast: 1_000_000, points: 10 },
  { atLeast: 750_000, points: 5 },
];

/** Social reach: the largest follower count on any one network (audiences are not added up). */
export const SOCIAL_FOLLOWERS_BANDS: Band[] = [
  { atLeast: 1_000_000, points: 35 },
  { atLeast: 100_000, points: 25 },
  { atLeast: 10_000, points: 12 },
  { atLeast: 1_000, points: 4 },
];

/**
 * Affluent area: the ZIP code's median household income (Census ACS). National median ~$78k.
 * Of the 30,547 ZCTAs with an estimate, 118 are top-coded "$250,000+", 331 are at $200k or
 * more, 1,185 at $150k or more and 5,832 (19%) at $100k or more. An area describes neighbours,
 * not the person, hence less than the personal wealth bands.
 */
export const AREA_MEDIAN_INCOME_BANDS: Band[] = [
  { atLeast: 250_000, points: 25 },
  { atLeast: 200_000, points: 20 },
  { atLeast: 150_000, points: 12 },
  { atLeast: 100_000, points: 6 },
];

/** The latest order's total in US dollars (another currency converted: see offline-signals.ts). */
export const ORDER_VALUE_USD_BANDS: Band[] = [
  { atLeast: 2_500, points: 30 },
  { atLeast: 1_000, points: 25 },
  { atLeast: 500, points: 18 },
  { atLeast: 250, points: 10 },
  { atLeast: 100, points: 4 },
];

/**
 * The same order against the store's own recent orders (percentile rank, any currency): "$300"
 * is big for a tea shop and small for a furniture store. Needs 20+ orders to mean anything.
 */
export const STORE_PERCENTILE_BANDS: Band[] = [
  { atLeast: 99, points: 15 },
  { atLeast: 95, points: 10 },
  { atLeast: 90, points: 6 },
  { atLeast: 75, points: 2 },
];

/** A company (or own) domain rather than a free mailbox: weak but cheap evidence. */
export const CORPORATE_DOMAIN_POINTS = 5;

/** Orders in this store: loyalty. Enrichment usually runs at the first order, so it is small. */
export const REPEAT_ORDER_BANDS: Band[] = [
  { atLeast: 10, points: 12 },
  { atLeast: 5, points: 8 },
  { atLeast: 2, points: 4 },
];

/**
 * Lifetime spend: the sum of the customer's counted orders (USD only, like the order bands).
 * Scored only once there is more than one order (a first order is the order bands' business),
 * so it rewards the regular whose orders add up: $144 a time over 21 orders is $3,020, worth 30
 * with the 12 of ten repeat orders, which a first order of $144 (4) never earns alone. With a
 * modest profile (a manager, 5, at a 500-person company, 8, with a $150k salary, 12) and a
 * median order, that first order scores ~31, well under the default 70; the same person at
 * $3,020 over 21 orders scores 25 + 4 + 2 + 12 + 30 = 73, and crosses it. A stranger with no
 * profile never gets there on spend alone below $10,000 (45).
 */
export const LIFETIME_SPEND_USD_BANDS: Band[] = [
  { atLeast: 10_000, points: 45 },
  { atLeast: 5_000, points: 38 },
  { atLeast: 2_500, points: 30 },
  { atLeast: 1_000, points: 15 },
  { atLeast: 500, points: 6 },
];

/**
 * The largest order ever, when it is not the latest (the latest has its own bands): a customer
 * who once bought big is likelier to again. Light, since one order can be a gift.
 */
export const LARGEST_ORDER_USD_BANDS: Band[] = [
  { atLeast: 2_500, points: 10 },
  { atLeast: 1_000, points: 6 },
  { atLeast: 500, points: 3 },
];

export function bandPoints(value: number, bands: Band[]): number {
  return bands.find((b) => value >= b.atLeast)?.points ?? 0;
}

/**
 * The highest score the offline signals alone can give a customer's first order (no provider
 * configured); a regular's lifetime spend and largest order add to it on later orders.
 */
export const OFFLINE_MAX_SCORE = Math.min(
  MAX_SCORE,
  [
    ORDER_VALUE_USD_BANDS,
    STORE_PERCENTILE_BANDS,
    AREA_MEDIAN_INCOME_BANDS,
    REPEAT_ORDER_BANDS,
    [{ atLeast: 0, points: CORPORATE_DOMAIN_POINTS }],
  ].reduce((sum, bands) => sum + Math.max(...bands.map((b) => b.points)), 0),
);

/**
 * A first order that passes the default threshold on the offline signals alone: the top order
 * band ($2,500+), which is also in the top 1 % of online orders (the store's own once it has
 * 20, typical online orders before), from a ZIP code in the top income band, with a company
 * e-mail address. The banners and docs quote it.
 */
export const OFFLINE_FIRST_ORDER_EXAMPLE = {
  orderUsd: ORDER_VALUE_USD_BANDS[0]?.atLeast ?? 0,
  areaIncomeUsd: AREA_MEDIAN_INCOME_BANDS[0]?.atLeast ?? 0,
  score:
    (ORDER_VALUE_USD_BANDS[0]?.points ?? 0) +
    (STORE_PERCENTILE_BANDS[0]?.points ?? 0) +
    (AREA_MEDIAN_INCOME_BANDS[0]?.points ?? 0) +
    CORPORATE_DOMAIN_POINTS,
} as const;
