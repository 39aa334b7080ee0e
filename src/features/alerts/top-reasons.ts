/**
 * The "why" of an alert: the score's explained signals (`enrichments.signals`, an array of
 * {source, signal, value, points}) that earned the most points, as short readable lines. The
 * labels are the dashboard's too (`signal-labels.ts`); unknown names are humanised there, so a
 * signal added to the score shows up without a change here. Malformed entries are skipped,
 * never fatal: an alert with fewer reasons is better than no alert.
 */
import { readStoredSignals } from "../enrichment/score/read-stored-signals.js";
import { signalLabel } from "../enrichment/score/signal-labels.js";
import { formatSignalValue } from "../enrichment/score/signal-values.js";

export interface AlertReason {
  label: string;
  /** The observed value, already formatted for people. */
  value: string | null;
  points: number;
}

export const MAX_REASONS = 3;

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

function formatValue(signal: string, value: string | number | boolean | null): string | null {
  if (typeof value !== "string") return formatSignalValue(signal, value);
  const text = value.replace(/\s+/g, " ").trim();
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
