import { describe, expect, it } from "vitest";
import { loadConfig } from "../../../config.js";
import { PROVIDER_NAMES, PROVIDERS, providerLabel, turnOnSetting } from "./provider-registry.js";

describe("the provider registry", () => {
  it("gives every provider its own precedence, identity data first", () => {
    const precedences = Object.values(PROVIDERS).map((p) => p.precedence);
    expect(new Set(precedences).size).toBe(precedences.length);
    expect(PROVIDER_NAMES).toEqual(["pdl", "enrichlayer", "fullcontact", "gravatar"]);
  });

  it("reads every provider's variables under its own prefix, with its defaults", () => {
    const config = loadConfig({
      ENRICHLAYER_API_KEY: " el_key ",
      ENRICHLAYER_BASE_URL: "http://127.0.0.1:9/",
      FULLCONTACT_RATE_LIMIT_PER_MIN: "7",
    });
    expect(config.enrichment.enrichlayer).toEqual({
      enabled: true,
      apiKey: "el_key",
      baseUrl: "http://127.0.0.1:9",
      ratePerMinute: 300,
      priceUsd: "0.30",
    });
    expect(config.enrichment.fullcontact.ratePerMinute).toBe(7);
    expect(config.enrichment.pdl.apiKey).toBeNull();
    for (const name of PROVIDER_NAMES)
      expect(() => loadConfig({ [`${PROVIDERS[name].envPrefix}_PRICE_USD`]: "-1" })).toThrow(
        `${PROVIDERS[name].envPrefix}_PRICE_USD: must be a non-negative decimal`,
      );
  });

  it("turns each provider on as its declaration says: a key, or for Gravatar a flag or a key", () => {
    const on = (env: Record<string, string>) =>
      PROVIDER_NAMES.filter((name) => loadConfig(env).enrichment[name].enabled);
    expect(on({})).toEqual([]);
    expect(turnOnSetting(PROVIDERS.pdl)).toBe("PDL_API_KEY");
    expect(turnOnSetting(PROVIDERS.gravatar)).toBe("GRAVATAR_ENABLED=true");
    expect(on({ PDL_API_KEY: "k", FULLCONTACT_API_KEY: " " })).toEqual(["pdl"]);
    expect(on({ GRAVATAR_ENABLED: "true" })).toEqual(["gravatar"]);
    expect(on({ GRAVATAR_ENABLED: "false", GRAVATAR_API_KEY: "g" })).toEqual(["gravatar"]);
    // A flag belongs to a provider that answers without a key; the others have none.
    expect(on({ PDL_ENABLED: "true" })).toEqual([]);
    expect(() => loadConfig({ GRAVATAR_ENABLED: "maybe" })).toThrow("GRAVATAR_ENABLED");
  });

  it("reads the variables a provider declares as its own into its settings, checked", () => {
    expect(loadConfig({}).enrichment.pdl.minLikelihood).toBe(6);
    expect(loadConfig({}).enrichment.fullcontact.confidence).toBe("HIGH");
    const config = loadConfig({ PDL_MIN_LIKELIHOOD: "8", FULLCONTACT_CONFIDENCE: "MAX" });
    expect(config.enrichment.pdl.minLikelihood).toBe(8);
    expect(config.enrichment.fullcontact.confidence).toBe("MAX");
    expect(() => loadConfig({ PDL_MIN_LIKELIHOOD: "11" })).toThrow("PDL_MIN_LIKELIHOOD");
    expect(() => loadConfig({ FULLCONTACT_CONFIDENCE: "SURE" })).toThrow("FULLCONTACT_CONFIDENCE");
  });

  it("labels a stored name as its provider spells it, an unknown one as itself", () => {
    expect(providerLabel("pdl")).toBe("People Data Labs");
    expect(providerLabel("retired")).toBe("retired");
  });
});
