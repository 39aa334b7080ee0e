import { describe, expect, it } from "vitest";
import {
  PROVIDER_NAMES,
  PROVIDERS,
  turnOnSetting,
} from "../../enrichment/providers/provider-registry.js";
import { noProvidersNotice } from "./enrichment-sources.js";

describe("the no-provider notice", () => {
  it("names every declared provider, what turns it on and what it brings, in precedence order", () => {
    const notice = noProvidersNotice([], 70).value;
    const places = PROVIDER_NAMES.map((name) => {
      const declared = PROVIDERS[name];
      const item = `<code>${turnOnSetting(declared)}</code> (${declared.label}: `;
      expect(notice).toContain(item);
      return notice.indexOf(item);
    });
    expect(places).toEqual([...places].sort((a, b) => a - b));
    expect(notice).toContain(
      "<code>PDL_API_KEY</code> (People Data Labs: job, seniority, company), <code>ENRICHLAYER_API_KEY</code>",
    );
    // A list that reads as one: commas, and "and" before the last.
    expect(notice).toMatch(
      /\), <code>[^<]+<\/code> \([^)]+\) and <code>[^<]+<\/code> \([^)]+\)\.<\/p>/,
    );
  });

  it("says nothing once a provider is on", () => {
    expect(noProvidersNotice(["pdl"], 70).value).toBe("");
  });
});
