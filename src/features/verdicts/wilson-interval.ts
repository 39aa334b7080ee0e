/**
 * The Wilson score interval for a proportion (right of judged): unlike "p ± 1.96·√(p(1−p)/n)"
 * it stays within 0–1 and is honest at small counts and at 0 % or 100 % (18 right of 20 gives
 * 69.9 %–97.2 %, not 76.9 %–100 %).
 */

/** The two-sided 95 % normal quantile. */
export const Z_95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

export function wilsonInterval(successes: number, trials: number, z = Z_95): Interval | null {
  if (trials <= 0) return null;
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}
