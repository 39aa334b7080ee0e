import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.js";
import { destinationDrivers } from "./destination-kinds.js";
import { KLAVIYO_DESTINATION } from "./klaviyo/klaviyo-driver.js";
import { platformAddress } from "./platform-address.js";

describe("a destination kind's platform address", () => {
  it("is the platform's own unless the declared variable names another, without a trailing slash", () => {
    expect(platformAddress(loadConfig({}), KLAVIYO_DESTINATION)).toBe("https://a.klaviyo.com");
    const config = loadConfig({ KLAVIYO_BASE_URL: "http://127.0.0.1:9/" });
    expect(platformAddress(config, KLAVIYO_DESTINATION)).toBe("http://127.0.0.1:9");
  });

  it("stops the start when the variable is not a URL, naming it", () => {
    const config = loadConfig({ KLAVIYO_BASE_URL: "a.klaviyo" });
    expect(() => destinationDrivers(config)).toThrow(ConfigError);
    expect(() => destinationDrivers(config)).toThrow(/KLAVIYO_BASE_URL: Invalid URL/i);
  });
});
