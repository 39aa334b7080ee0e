/** One line of a score's explanation: where it came from, what was seen, what it earned. */
export interface ScoreSignal {
  /** "profile" (merged provider data), "offline" (order, e-mail, area) or "score" (the cap). */
  source: string;
  signal: string;
  /** What was observed; for a skipped signal, why it was skipped. */
  value: string | number | boolean | null;
  points: number;
  /** For a line from a provider's data: which provider, and how sure it was of the match. */
  confidence?: string;
}
