/**
 * The VIP score: a pure, deterministic function of the merged profile and the offline signals.
 * 0–100, and every point is explained: the points of the returned signals add up to the score
 * exactly. The raw sum can pass 100 (weights.ts says why); the excess is then taken off by one
 * explicit "capped_at_100" signal whose value is the raw sum, so the arithmetic still holds.
 */
import type { OfflineSignals } from "../offline-signals.js";
import type { ProfileFragment } from "../providers/provider.js";
import { offlineSignals } from "./offline-score-signals.js";
import { profileSignals } from "./profile-signals.js";
import type { ScoreSignal } from "./score-signal.js";
import { MAX_SCORE, MIN_SCORE } from "./weights.js";

export type { ScoreSignal };

export interface ScoreInput {
  profile: ProfileFragment;
  offline: OfflineSignals;
  /** Why the profile is empty, when it is (default "no provider matched"). */
  noProfileReason?: string;
}

export interface ScoreResult {
  score: number;
  signals: ScoreSignal[];
}

export function computeScore(input: ScoreInput): ScoreResult {
  return totalOf([
    ...profileSignals(input.profile, input.noProfileReason),
    ...offlineSignals(input.offline),
  ]);
}

/**
 * The score of these lines, 0–100, with the line that caps or floors it when the raw sum is
 * out of range (a re-judge adds fresh offline lines to the stored provider lines: rejudge/).
 */
export function totalOf(lines: ScoreSignal[]): ScoreResult {
  const signals = [...lines];
  const raw = signals.reduce((sum, s) => sum + s.points, 0);
  const score = Math.min(MAX_SCORE, Math.max(MIN_SCORE, raw));
  if (score !== raw) {
    signals.push({
      source: "score",
      signal: raw > MAX_SCORE ? `capped_at_${MAX_SCORE}` : `floored_at_${MIN_SCORE}`,
      value: raw,
      points: score - raw,
    });
  }
  return { score, signals };
}

/** A customer is a VIP when the score is strictly above the account's threshold. */
export function isVip(score: number, threshold: number): boolean {
  return score > threshold;
}
