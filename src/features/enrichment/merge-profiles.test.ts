import { describe, expect, it } from "vitest";
import { mergeProfiles } from "./merge-profiles.js";

describe("mergeProfiles", () => {
  it("takes each field from the first fragment (in precedence order) that has it", () => {
    const merged = mergeProfiles([
      { title: "CEO", seniority: "c_level", company: "Acme", companyEmployees: 250 },
      {
        title: "Chief Executive",
        company: "Acme Inc",
        companyEmployees: 5000,
        companyRevenueUsd: 9e6,
      },
      { householdIncomeUsd: 300_000, netWorthUsd: 2e6, title: "ignored" },
    ]);
    expect(merged).toEqual({
      title: "CEO",
      seniority: "c_level",
      company: "Acme",
      companyEmployees: 250, // precedence, not the larger figure
      companyRevenueUsd: 9e6,
      householdIncomeUsd: 300_000,
      netWorthUsd: 2e6,
    });
  });

  it("treats blank strings, negative and non-finite numbers as absent, and trims text", () => {
    const merged = mergeProfiles([
      { title: "  ", companyEmployees: -1, netWorthUsd: Number.NaN, location: " Boston, MA " },
      { title: "Director", companyEmployees: 40, netWorthUsd: 750_000 },
    ]);
    expect(merged).toEqual({
      title: "Director",
      companyEmployees: 40,
      netWorthUsd: 750_000,
      location: "Boston, MA",
    });
  });

  it("unites social profiles, one per network, keeping the highest follower count", () => {
    const merged = mergeProfiles([
      {
        social: [
          { network: "Twitter", handle: "jane", url: null, followers: 1200 },
          {
            network: "linkedin",
            handle: "janedoe",
            url: "https://linkedin.com/in/janedoe",
            followers: null,
          },
        ],
      },
      {
        social: [
          { network: "twitter", handle: null, url: "https://x.com/jane", followers: 1500 },
          { network: "instagram", handle: "jane.d", url: null, followers: 90_000 },
          { network: "LinkedIn", handle: "", url: null, followers: 300 },
          { network: " ", handle: "x", url: null, followers: 10 },
        ],
      },
    ]);
    expect(merged.social).toEqual([
      { network: "twitter", handle: "jane", url: "https://x.com/jane", followers: 1500 },
      {
        network: "linkedin",
        handle: "janedoe",
        url: "https://linkedin.com/in/janedoe",
        followers: 300,
      },
      { network: "instagram", handle: "jane.d", url: null, followers: 90_000 },
    ]);
  });

  it("returns an empty profile for no fragments or empty ones", () => {
    expect(mergeProfiles([])).toEqual({});
    expect(mergeProfiles([{}, { social: [] }])).toEqual({});
  });
});
