/**
 * The "why" of an alert: the score's explained signals (`enrichments.signals`, an array of
 * {source, signal, value, points}) that earned the most points, as short readable lines. The
 * labels are the dashboard's too (`signal-labels.ts`); unknown names are humanised there, so a
 * signal added to the score shows up without a change here. Malformed entries are skipped,
 * never fatal: an alert with fewer reasons is better than no alert.
 */
import { plural } from "../../lib/plural.js";
import { readStoredSignals } from "../enrichment/score/read-stored-signals.js";
import { signalLabel } from "../enrichment/score/signal-labels.js";
import { formatSignalValue } from "../enrichment/score/signal-values.js";

export interface AlertReason {
  label: string;
  /** The observed value, already formatted for people. */
  value: string | null;
  points: number;
}

/**
 * What the listed reasons leave out, so the alert's numbers add up to the score: the points of
 * the other signals that counted (`signals` of them), and whether the score was kept within
 * 0–100 (the "capped_at_100" line's points are in `points` too).
 */
export interface MoreReasons {
  points: number;
  signals: number;
  capped: boolean;
}

export const MAX_REASONS = 3;

/** The top reasons and what the rest of the score adds: null when the reasons are all of it. */
export function explainScore(
  signalsJson: string,
  max = MAX_REASONS,
): { reasons: AlertReason[]; more: MoreReasons | null } {
  const all = readStoredSignals(signalsJson);
  const reasons = topReasons(signalsJson, max);
  const total = all.reduce((sum, s) => sum + s.points, 0);
  const shown = reasons.reduce((sum, r) => sum + r.points, 0);
  const counted = all.filter((s) => s.source !== "score" && s.points !== 0).length;
  const capped = all.some((s) => s.source === "score" && s.points !== 0);
  const signals = counted - reasons.length;
  if (signals <= 0 && !capped) return { reasons, more: null };
  return { reasons, more: { points: total - shown, signals: Math.max(signals, 0), capped } };
}

/** "+5 from 1 more signal", "+12 from 3 more signals, the score capped at 100" */
export function describeMore(more: MoreReasons): string {
  const points = more.points < 0 ? `-${-more.points}` : `+${more.points}`;
  const cap = "the score kept within 0–100";
  if (more.signals === 0) return `${points}: ${cap}`;
  return `${points} from ${plural(more.signals, "more signal")}${more.capped ? `, ${cap}` : ""}`;
}

export function topReasons(signalsJson: string, max = MAX_REASONS): AlertReason[] {
  // The cap line ("capped_at_100", source "score") explains arithmetic, not the customer.
  const signals = readStoredSignals(signalsJson).filter(
    (s) => s.points > 0 && s.source !== "score",
  );
  return signals
    .map((s, index) => ({ s, index }))
    .sort((a, b) => b.s.points - a.s.points || a.index - b.index)
    .slice(0, max)
    .map(({ s }) => ({
      label: signalLabel(s.signal),
      value: formatValue(s.signal, s.value),
      points: s.points,
    }));
}

/** "Seniority: c_level (+25)" */
export function describeReason(reason: AlertReason): string {
  const value = reason.value === null ? "" : `: ${reason.value}`;
  return `${reason.label}${value} (+${reason.points})`;
}

/** The one wording of a value (money in the one money format), on one line, at most 80 characters. */
function formatValue(signal: string, value: string | number | boolean | null): string | null {
  const formatted = formatSignalValue(signal, value);
  if (formatted === null) return null;
  const text = formatted.replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
