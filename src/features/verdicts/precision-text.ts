/** Precision in words, the same on Settings → Alerts and from `velvet alerts precision`. */
import {
  MIN_JUDGED_AT_SUGGESTION,
  MIN_VERDICTS_FOR_SUGGESTION,
  PRECISION_WINDOW_DAYS,
  type Precision,
  TARGET_PRECISION,
} from "./precision.js";

const pct = (x: number) => `${Math.round(x * 100)} %`;

/** "Precision at 70: 18 right of 20 judged (90 %, 95 % interval 70–97 %)". */
export function precisionLine(p: Precision): string {
  if (p.precision === null || p.interval === null)
    return `Precision at ${p.threshold}: no VIP above ${p.threshold} scored in the last ${PRECISION_WINDOW_DAYS} days has a verdict yet.`;
  return `Precision at ${p.threshold}: ${p.right} right of ${p.judged} judged (${pct(p.precision)}, 95 % interval ${Math.round(p.interval.low * 100)}–${pct(p.interval.high)})`;
}

export function suggestionLine(p: Precision): string {
  if (p.verdictsInWindow < MIN_VERDICTS_FOR_SUGGESTION)
    return `Give at least ${MIN_VERDICTS_FOR_SUGGESTION} verdicts to get a suggested threshold (${p.verdictsInWindow} so far).`;
  if (p.suggestedThreshold === null)
    return `No threshold would have kept precision at ${pct(TARGET_PRECISION)} or more on these verdicts with at least ${MIN_JUDGED_AT_SUGGESTION} judged VIPs above it.`;
  if (p.suggestedThreshold === p.threshold)
    return `Suggested threshold: ${p.suggestedThreshold}, the one you have: the lowest that kept precision at ${pct(TARGET_PRECISION)} or more.`;
  return `Suggested threshold: ${p.suggestedThreshold}, the lowest that would have kept precision at ${pct(TARGET_PRECISION)} or more, so the one keeping the most VIPs.`;
}
