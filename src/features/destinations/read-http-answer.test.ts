import { describe, expect, it } from "vitest";
import type { OutboundResponse } from "../../lib/outbound/outbound-http.js";
import { readHttpAnswer } from "./read-http-answer.js";

function answer(status: number, body = "", retryAfterMs?: number): OutboundResponse {
  const verdict = status < 300 ? "ok" : status === 429 || status >= 500 ? "retry" : "rejected";
  return {
    kind: "answered",
    status,
    verdict,
    headers: {},
    body,
    truncated: false,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

describe("an outbound answer read as a delivery result", () => {
  it("delivers a 2xx, retries a 5xx after Retry-After, fails a refusal with what the body said", () => {
    expect(readHttpAnswer(answer(202)).outcome).toBe("delivered");
    expect(readHttpAnswer(answer(503, "down", 30_000))).toMatchObject({
      outcome: "retry",
      delayMs: 30_000,
    });
    expect(readHttpAnswer(answer(400, "bad field"))).toEqual({
      outcome: "failed",
      statusCode: 400,
      error: "400 bad field",
    });
    expect(readHttpAnswer({ kind: "timeout", error: "timed out" }).outcome).toBe("retry");
    expect(readHttpAnswer({ kind: "refused", error: "private address" }).outcome).toBe("failed");
  });

  it("waits out a 429 without spending an attempt: Retry-After, else the kind's wait, fixed or read from the answer", () => {
    expect(readHttpAnswer(answer(429)).outcome).toBe("retry");
    const fixed = { rateLimitWaitMs: 1_000 };
    expect(readHttpAnswer(answer(429), fixed)).toMatchObject({
      outcome: "deferred",
      delayMs: 1_000,
    });
    expect(readHttpAnswer(answer(429, "", 5_000), fixed)).toMatchObject({ delayMs: 5_000 });
    // A platform whose body names the limit hit: a second for the burst, an hour for the day's.
    const byLimit = {
      rateLimitWaitMs: (res: { body: string }) => (res.body.includes("DAILY") ? 3_600_000 : 1_000),
    };
    expect(readHttpAnswer(answer(429, '{"policyName":"DAILY"}'), byLimit)).toMatchObject({
      outcome: "deferred",
      delayMs: 3_600_000,
    });
    expect(readHttpAnswer(answer(429, '{"policyName":"SECONDLY"}'), byLimit)).toMatchObject({
      delayMs: 1_000,
    });
  });
});
