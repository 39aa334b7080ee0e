import { describe, expect, it } from "vitest";
import { parseRetryAfter } from "../../../lib/retry-after.js";
import { parseRateLimitReset, retryAfterFromHeaders } from "./retry-after.js";

const NOW = Date.parse("2025-06-01T12:00:00Z");

describe("parseRetryAfter", () => {
  it("reads delay-seconds", () => {
    expect(parseRetryAfter("7", NOW)).toBe(7_000);
    expect(parseRetryAfter(" 0 ", NOW)).toBe(0);
    expect(parseRetryAfter("1.5", NOW)).toBe(1_500);
  });

  it("reads an HTTP-date, never into the past", () => {
    expect(parseRetryAfter("Sun, 01 Jun 2025 12:00:30 GMT", NOW)).toBe(30_000);
    expect(parseRetryAfter("Sun, 01 Jun 2025 11:00:00 GMT", NOW)).toBe(0);
  });

  it("caps absurd values at one hour and ignores garbage", () => {
    expect(parseRetryAfter("999999", NOW)).toBe(3_600_000);
    expect(parseRetryAfter("soon", NOW)).toBeUndefined();
  });
});

describe("parseRateLimitReset", () => {
  it("reads epoch seconds, epoch milliseconds, seconds from now and dates", () => {
    expect(parseRateLimitReset(String(NOW / 1000 + 42), NOW)).toBe(42_000);
    expect(parseRateLimitReset(String(NOW + 1_500), NOW)).toBe(1_500);
    expect(parseRateLimitReset("12", NOW)).toBe(12_000);
    expect(parseRateLimitReset("2025-06-01T12:00:20Z", NOW)).toBe(20_000);
  });

  it("takes the soonest reset from a JSON object of windows", () => {
    const header = JSON.stringify({
      minute: "2025-06-01T12:00:45Z",
      month: "2025-07-01T00:00:00Z",
    });
    expect(parseRateLimitReset(header, NOW)).toBe(45_000);
  });
});

describe("retryAfterFromHeaders", () => {
  it("prefers Retry-After, then falls back to X-RateLimit-Reset", () => {
    expect(
      retryAfterFromHeaders(new Headers({ "retry-after": "3", "x-ratelimit-reset": "60" }), NOW),
    ).toBe(3_000);
    expect(retryAfterFromHeaders(new Headers({ "x-ratelimit-reset": "60" }), NOW)).toBe(60_000);
    expect(retryAfterFromHeaders(new Headers(), NOW)).toBeUndefined();
  });
});
