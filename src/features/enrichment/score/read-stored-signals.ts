/**
 * Reads a stored explanation (`enrichments.signals`, JSON written from `ScoreSignal[]`) for
 * display. Leniently: malformed JSON or entries are dropped, never thrown, because an alert or
 * a page that shows fewer reasons is better than one that fails.
 */
import { z } from "zod";
import type { ScoreSignal } from "./score-signal.js";

const StoredSignalSchema = z.object({
  source: z.string(),
  signal: z.string(),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  points: z.number(),
  confidence: z.string().optional(),
});

export function readStoredSignals(json: string | null | undefined): ScoreSignal[] {
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry) => {
    const s = StoredSignalSchema.safeParse(entry);
    if (!s.success) return [];
    const { confidence, ...rest } = s.data;
    return [{ ...rest, value: rest.value ?? null, ...(confidence ? { confidence } : {}) }];
  });
}
