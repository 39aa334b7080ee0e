import { describe, expect, it } from "vitest";
import { billedLookups, isBilled } from "./billed-lookups.js";
import type { ProviderResult } from "./provider.js";

const matched = (provider: "pdl" | "fullcontact"): ProviderResult => ({
  kind: "matched",
  provider,
  httpStatus: 200,
  profile: {},
  raw: {},
});

describe("billed lookups", () => {
  it("counts an answered lookup (200) and nothing else, as the providers bill", () => {
    expect(isBilled(matched("pdl"))).toBe(true);
    // PDL's 404 is free; so are FullContact's 202 and every error or refused call.
    expect(isBilled({ kind: "not_found", provider: "pdl", httpStatus: 404, raw: {} })).toBe(false);
    const queued = { kind: "transient", provider: "fullcontact", httpStatus: 202, error: "later" };
    expect(isBilled(queued as ProviderResult)).toBe(false);
    const down = { kind: "transient", provider: "pdl", httpStatus: 503, error: "down" } as const;
    expect(isBilled(down)).toBe(false);
    const open = { kind: "transient", provider: "pdl", httpStatus: null, error: "open" } as const;
    expect(isBilled(open)).toBe(false);
    // EnrichLayer bills a 200 even when it holds no profile; an unreadable 200 was billed too.
    expect(isBilled({ kind: "not_found", provider: "enrichlayer", httpStatus: 200, raw: {} })).toBe(
      true,
    );
    const garbled = { kind: "permanent", provider: "pdl", httpStatus: 200, error: "html" } as const;
    expect(isBilled(garbled)).toBe(true);
  });

  it("prices each billed lookup at its provider's price", () => {
    const prices: Record<string, string> = { pdl: "0.28", fullcontact: "0.1" };
    const results = [
      matched("pdl"),
      { kind: "not_found", provider: "fullcontact", httpStatus: 404, raw: {} } as const,
    ];
    expect(billedLookups(results, (p) => prices[p] ?? "0")).toEqual([
      { provider: "pdl", lookups: 1, unitPriceUsd: "0.28" },
    ]);
  });
});
