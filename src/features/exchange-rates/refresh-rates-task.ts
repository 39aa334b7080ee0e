/**
 * The daily refresh of the reference rates, a periodic task of the job queue
 * (jobs/periodic-jobs.ts). It calls the ECB only when the operator allowed it
 * (ECB_RATES_REFRESH=true); otherwise each run does nothing and the rates stay those shipped or
 * refreshed by hand (`velvet data refresh-rates`).
 *
 * When: the ECB publishes around 16:00 CET on working days, so a run is due each day at 15:30
 * UTC (16:30 CET in winter, 17:30 CEST in summer), after the day's publication whatever the
 * season. A failed download is logged and tried again an hour later; the rates held keep being
 * used meanwhile, their date shown in every reason.
 */
import { z } from "zod";
import type { Deps } from "../../deps.js";
import type { TaskDefinition } from "../../jobs/task.js";
import type { OutboundHttp } from "../../lib/outbound/outbound-http.js";
import { refreshReferenceRates } from "./refresh-reference-rates.js";

export const REFRESH_RATES_TASK = "refresh-reference-rates";
const DAY_MS = 24 * 60 * 60_000;
const RETRY_MS = 60 * 60_000;
/** 15:30 UTC, in milliseconds after midnight UTC. */
const RUN_AT_MS_OF_DAY = (15 * 60 + 30) * 60_000;

export interface ExchangeRatesDeps {
  http: OutboundHttp;
}

export function refreshRatesTask(): TaskDefinition<
  Record<string, never>,
  Deps & ExchangeRatesDeps
> {
  return {
    task: REFRESH_RATES_TASK,
    payload: z.object({}),
    periodic: { everyMs: DAY_MS },
    async handle(deps, _payload, ctx) {
      const now = deps.clock.now();
      if (!deps.config.exchangeRates.refresh) {
        return { kind: "again", delayMs: untilNextRun(now) };
      }
      const outcome = await refreshReferenceRates(deps, deps.config.exchangeRates.url, ctx.signal);
      if (outcome.kind === "failed") {
        deps.log.warn({ reason: outcome.reason }, "reference rates not refreshed");
        return { kind: "again", delayMs: RETRY_MS };
      }
      if (outcome.kind === "stored") {
        deps.log.info(
          { date: outcome.date, currencies: outcome.currencies },
          "stored the ECB reference rates",
        );
      }
      return { kind: "again", delayMs: untilNextRun(deps.clock.now()) };
    },
  };
}

/** Milliseconds from `now` to the next 15:30 UTC (a full day when it is that moment now). */
export function untilNextRun(now: number): number {
  const msOfDay = ((now % DAY_MS) + DAY_MS) % DAY_MS;
  const wait = RUN_AT_MS_OF_DAY - msOfDay;
  return wait > 0 ? wait : wait + DAY_MS;
}
