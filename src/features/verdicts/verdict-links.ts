/**
 * The verdict links in an alert's message. Glossary:
 * - verdict: a merchant's word on a VIP, `right` ("Right") or `wrong` ("Not a VIP"); one per
 *   customer, the latest wins (record-verdict.ts).
 * - alert secret: 32 random bytes written with each alert row (`alerts.verdict_secret`); there
 *   is no process-wide key, so rotating nothing is needed and an erased alert takes its links
 *   with it.
 * - link token: HMAC-SHA256 of `alert id : verdict` under the alert secret (43 base64url
 *   characters, which lib/log-scrub.ts removes from any log line). The same alert always gives
 *   the same links, so a retried message is byte for byte the one sent before.
 * - single purpose: a link records one verdict on one alert's customer; it works for
 *   VERDICT_LINK_TTL_MS after the alert and may be used again (the same verdict, recorded anew).
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { VerdictValue } from "../../db/schema.js";

export const VERDICT_LINK_PATH = "/verdict";
export const VERDICT_LINK_TTL_MS = 90 * 24 * 3600_000;
export const VERDICTS: readonly VerdictValue[] = ["right", "wrong"];

/** How people read a verdict, on every page, message and command. */
export const VERDICT_LABELS: Record<VerdictValue, string> = { right: "Right", wrong: "Not a VIP" };

export function newVerdictSecret(): string {
  return randomBytes(32).toString("base64url");
}

export function isVerdict(value: unknown): value is VerdictValue {
  return value === "right" || value === "wrong";
}

export function verdictToken(secret: string, alertId: string, verdict: VerdictValue): string {
  return createHmac("sha256", secret).update(`${alertId}:${verdict}`).digest("base64url");
}

/** Constant-time: the token a link carries against the one the alert's secret gives. */
export function tokenMatches(
  secret: string,
  alertId: string,
  verdict: VerdictValue,
  token: string,
): boolean {
  const expected = Buffer.from(verdictToken(secret, alertId, verdict));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface VerdictLinks {
  right: string;
  wrong: string;
}

/** The two links of an alert's message; null for an alert without a secret (older alerts). */
export function verdictLinks(
  publicBaseUrl: string,
  alert: { id: string; verdictSecret: string | null },
): VerdictLinks | null {
  const secret = alert.verdictSecret;
  if (secret === null) return null;
  const link = (verdict: VerdictValue) =>
    `${publicBaseUrl}${VERDICT_LINK_PATH}?alert=${alert.id}&verdict=${verdict}&token=${verdictToken(secret, alert.id, verdict)}`;
  return { right: link("right"), wrong: link("wrong") };
}
