/** The account's own limit on API requests a minute per key (features/rate-limits). */
import { defineSetting } from "./account-setting.js";

const MAX_RATE_LIMIT = 10_000_000;

export const apiRateLimitPerMinute = defineSetting({
  column: "api_rate_limit_per_minute",
  label: "API rate limit",
  default: null as number | null,
  /** A whole number of requests a minute (0: unlimited), or "" for the deployment's default. */
  parse(text: string) {
    const v = text.trim();
    if (v === "") return { ok: true, value: null };
    if (!/^\d+$/.test(v) || Number(v) > MAX_RATE_LIMIT)
      return {
        ok: false,
        problem:
          'the rate limit is a whole number of requests a minute (0: unlimited; "": the default)',
      };
    return { ok: true, value: Number(v) };
  },
  text: (value: number | null) => (value === null ? "" : String(value)),
  describe(own: number | null, config) {
    const limit = own ?? config.apiRateLimitPerMinute;
    const text = limit === 0 ? "unlimited" : `${limit} requests a minute per key`;
    return own === null ? `${text} (the default, API_RATE_LIMIT_PER_MINUTE)` : text;
  },
  role: "owner",
  audit: { action: "alert_settings.changed", detail: "apiRateLimit" },
  form: null,
  cli: {
    flag: "--rate-limit <N>",
    description: 'API requests a minute per key for this account (0: unlimited; "": the default)',
  },
});
