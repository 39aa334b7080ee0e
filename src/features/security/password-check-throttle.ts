/**
 * One password check under the log-in throttle (auth-throttle.ts, action `login`): reserved
 * before the check, delayed after repeated failures, settled with its outcome (an error counts
 * as a failure, like a wrong password), the e-mail's failures forgiven by a success. The log-in
 * form and every form that asks for the current password share it, so none is a faster way to
 * guess the same secret.
 */
import { setTimeout as sleep } from "node:timers/promises";
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { LOGIN_POLICY, reserveAuthAttempt, settleAuthAttempt } from "./auth-throttle.js";

export type ThrottledCheck<T> = T | { kind: "throttled"; retryAfterMs: number };

export async function checkPasswordThrottled<T>(
  db: Kysely<Database>,
  who: { email: string; ip: string },
  now: number,
  check: () => Promise<{ succeeded: boolean; result: T }>,
): Promise<ThrottledCheck<T>> {
  const reservation = await reserveAuthAttempt(db, LOGIN_POLICY, who, now);
  if (reservation.kind === "throttled") return reservation;
  let succeeded = false;
  try {
    // Growing delay per e-mail: slows guessing from many addresses without locking anyone out.
    if (reservation.delayMs > 0) await sleep(reservation.delayMs);
    const outcome = await check();
    succeeded = outcome.succeeded;
    return outcome.result;
  } finally {
    await settleAuthAttempt(db, reservation, succeeded ? "succeeded" : "failed", {
      forgiveEmail: true,
    });
  }
}
