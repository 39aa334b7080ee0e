/**
 * `Retry-After` (RFC 9110: delay-seconds or an HTTP-date) as milliseconds from `now`, for every
 * outside service Velvet calls (enrichment providers, chat webhooks). Decimal seconds are read
 * too (some servers send them). The result is clamped to [minMs, 1 hour], so a confused header
 * cannot park a job for days; undefined when the value is missing or unreadable.
 */
export const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

export function parseRetryAfter(
  value: string | undefined,
  now: number,
  minMs = 0,
): number | undefined {
  const text = value?.trim() ?? "";
  if (text === "") return undefined;
  let ms: number;
  if (/^\d+(\.\d+)?$/.test(text)) ms = Number(text) * 1000;
  else {
    const at = Date.parse(text);
    if (Number.isNaN(at)) return undefined;
    ms = at - now;
  }
  return clampDelay(ms, minMs);
}

/** Rounds up and clamps a delay to [minMs, MAX_RETRY_AFTER_MS]. */
export function clampDelay(ms: number, minMs = 0): number {
  return Math.ceil(Math.min(Math.max(ms, minMs), MAX_RETRY_AFTER_MS));
}
