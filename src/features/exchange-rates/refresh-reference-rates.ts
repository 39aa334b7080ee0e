/**
 * Downloads the ECB's daily reference rates through the process's guarded outbound client and
 * stores the day. Every way it can go wrong is a value with a sentence saying why (the ECB did
 * not answer, answered an error, sent something that is not the daily file or was cut short),
 * and in each of them the rates held stay exactly as they were. Used by
 * `velvet data refresh-rates` and by the daily job (refresh-rates-task.ts).
 */
import type { Db } from "../../db/connect.js";
import type { Clock } from "../../lib/clock.js";
import type { OutboundHttp } from "../../lib/outbound/outbound-http.js";
import { parseEcbDailyXml } from "./parse-ecb-daily-xml.js";
import { storeRateDay } from "./store-rate-day.js";

/** The daily file is under 2 KB; anything near this is not it. */
const MAX_BODY_BYTES = 64 * 1024;
const TIMEOUT_MS = 15_000;

export interface RefreshDeps {
  db: Db;
  http: OutboundHttp;
  clock: Clock;
}

export type RefreshOutcome =
  | { kind: "stored"; date: string; currencies: number; replaced: string | null }
  /** The ECB's day is older than the one held: nothing changed. */
  | { kind: "kept"; date: string; heldDate: string }
  | { kind: "failed"; reason: string };

export async function refreshReferenceRates(
  deps: RefreshDeps,
  url: string,
  signal: AbortSignal,
): Promise<RefreshOutcome> {
  const res = await deps.http.send(
    {
      url,
      method: "GET",
      headers: { accept: "application/xml, text/xml" },
      timeoutMs: TIMEOUT_MS,
      maxBodyBytes: MAX_BODY_BYTES,
    },
    signal,
  );
  if (res.kind !== "answered") return failed(`the ECB could not be reached (${res.error})`);
  if (res.verdict !== "ok") return failed(`the ECB answered HTTP ${res.status}`);
  if (res.truncated) {
    return failed(
      `the answer was longer than ${MAX_BODY_BYTES / 1024} KB; it is not the daily file`,
    );
  }
  const parsed = parseEcbDailyXml(res.body);
  if (!parsed.ok) return failed(`the answer is not a usable day of rates: ${parsed.reason}`);
  const outcome = await storeRateDay(deps.db, parsed.day, deps.clock.now());
  return outcome.kind === "kept"
    ? { kind: "kept", date: parsed.day.date, heldDate: outcome.heldDate }
    : outcome;
}

function failed(reason: string): RefreshOutcome {
  return { kind: "failed", reason: `${reason}; the rates held are unchanged` };
}
