/**
 * Where an order stands among typical online orders, for a store that does not yet have
 * MIN_STORE_ORDERS orders of its own to compare with (order-history.ts): a prior, so that the
 * order-size signal works from a store's first order.
 *
 * The distribution: order values are right-skewed (many small baskets, a long tail of large
 * ones) and are commonly modelled as log-normal. Its mean is the average online order value
 * published by the Salesforce Shopping Index (formerly the Demandware Shopping Index): $129,
 * global, all verticals. Its spread, σ = 1 on the log scale, is Velvet's assumption (no public
 * source gives the whole distribution); it puts the median at $78, the 90th percentile at $281,
 * the 95th at $404 and the 99th at $800. docs/scoring.md names the source and its date.
 */
export const ORDER_VALUE_PRIOR = {
  meanUsd: 129,
  sigma: 1,
  source: "Salesforce Shopping Index: average online order value $129 (global, all verticals)",
} as const;

/** The median of a log-normal with that mean and σ: mean / e^(σ²/2). */
const MEDIAN_USD = ORDER_VALUE_PRIOR.meanUsd / Math.exp(ORDER_VALUE_PRIOR.sigma ** 2 / 2);

/** Percentile (0–100, one decimal) of a USD order total among typical online orders. */
export function priorPercentile(totalUsd: number): number {
  if (!(totalUsd > 0)) return 0;
  const z = Math.log(totalUsd / MEDIAN_USD) / ORDER_VALUE_PRIOR.sigma;
  return Math.round(normalCdf(z) * 1000) / 10;
}

/** Φ(z) through erf (Abramowitz and Stegun 7.1.26, absolute error below 1.5e-7). */
function normalCdf(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly =
    t *
    (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  const erf = 1 - poly * Math.exp(-x * x);
  return z >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}
