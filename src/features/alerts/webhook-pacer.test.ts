import { describe, expect, it } from "vitest";
import { WebhookPacer } from "./webhook-pacer.js";

describe("WebhookPacer", () => {
  it("spaces reservations per key and hands back slots beyond the longest wait", () => {
    let t = 1000;
    const pacer = new WebhookPacer({ intervalMs: 1000, maxWaitMs: 1500, now: () => t });
    expect(pacer.reserve("a")).toEqual({ kind: "now", waitMs: 0 });
    expect(pacer.reserve("b")).toEqual({ kind: "now", waitMs: 0 });
    expect(pacer.reserve("a")).toEqual({ kind: "now", waitMs: 1000 });
    expect(pacer.reserve("a")).toEqual({ kind: "later", delayMs: 2000 });
    t += 2500;
    expect(pacer.reserve("a")).toEqual({ kind: "now", waitMs: 0 });
  });

  it("defers a key (a 429's Retry-After) without shortening an existing wait", () => {
    let t = 0;
    const pacer = new WebhookPacer({ intervalMs: 1000, maxWaitMs: 10_000, now: () => t });
    pacer.defer("a", 5000);
    pacer.defer("a", 1000);
    expect(pacer.reserve("a")).toEqual({ kind: "now", waitMs: 5000 });
    t = 7000;
    expect(pacer.reserve("a")).toEqual({ kind: "now", waitMs: 0 });
  });
});
