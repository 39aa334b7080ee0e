/**
 * A fake Gravatar REST API v3: `GET /v3/profiles/{sha256 of the trimmed, lower-cased e-mail}`,
 * with an optional `Authorization: Bearer` (a wrong key is refused, no key is fine unless the
 * fake was started with `requireKey`). Errors are `{"error": …, "code": …}`. Scripts are keyed
 * by e-mail and matched on its hash.
 *
 * Gravatar's quota (https://docs.gravatar.com/rest-api, "Rate Limits"): by default 100 requests
 * an hour without an API key and 1,000 with one, and error 429 past it. Counted here over the
 * last hour, apart for requests with the key and without. Gravatar documents no rate-limit
 * header, so none is sent. `quotaPerHour` raises it, as Gravatar does for those who ask.
 */
import { createHash } from "node:crypto";
import {
  bearer,
  type FakeProvider,
  type FakeProviderOptions,
  type Protocol,
  startFakeProvider,
} from "./fake-server.js";
import { type FakePerson, fullName } from "./person.js";

export const FAKE_GRAVATAR_KEY = "test-gravatar-key";

const ERRORS: Record<number, [string, string]> = {
  400: ["bad_request", "Invalid profile identifier"],
  401: ["unauthorized", "Invalid API key"],
  403: ["forbidden", "Forbidden"],
  404: ["not_found", "Profile not found"],
  429: ["rate_limit_exceeded", "Too many requests"],
  500: ["internal_error", "Internal server error"],
  503: ["service_unavailable", "Service unavailable"],
};

export function sha256Email(email: string): string {
  return createHash("sha256").update(email.trim().toLowerCase()).digest("hex");
}

/** Gravatar's default quotas, requests an hour (https://docs.gravatar.com/rest-api). */
export const GRAVATAR_QUOTA = { keyless: 100, keyed: 1_000 } as const;

export interface GravatarQuota {
  keyless: number;
  keyed: number;
}

const HOUR_MS = 3_600_000;

function protocol(requireKey: boolean, quota: GravatarQuota): Protocol {
  // When each request of the last hour came, per tier.
  const seen = { keyless: [] as number[], keyed: [] as number[] };
  const overQuota = (tier: keyof GravatarQuota, now: number): boolean => {
    const times = seen[tier];
    while (times.length > 0 && (times[0] ?? 0) <= now - HOUR_MS) times.shift();
    if (times.length >= quota[tier]) return true;
    times.push(now);
    return false;
  };
  return {
    keyFor: sha256Email,
    route(request, apiKey) {
      const match = /^\/v3\/profiles\/([^/]+)$/.exec(request.path);
      if (!match?.[1] || request.method !== "GET")
        return { answer: { status: 404, body: error(404) } };
      const given = bearer(request.headers);
      const refused = given === null ? requireKey : given !== apiKey;
      if (refused) return { answer: { status: 401, body: error(401) } };
      if (overQuota(given === null ? "keyless" : "keyed", request.at))
        return { answer: { status: 429, body: error(429) } };
      if (!/^[0-9a-f]{64}$/.test(match[1])) return { answer: { status: 400, body: error(400) } };
      return { key: match[1], email: null };
    },
    match: (person, email, request) =>
      profile(person, request.path.split("/").at(-1) ?? sha256Email(email)),
    reset() {
      seen.keyless.length = 0;
      seen.keyed.length = 0;
    },
    error,
  };
}

export function startFakeGravatar(
  options: FakeProviderOptions & { requireKey?: boolean; quotaPerHour?: GravatarQuota } = {},
): Promise<FakeProvider> {
  const quota = options.quotaPerHour ?? GRAVATAR_QUOTA;
  return startFakeProvider(
    protocol(options.requireKey ?? false, quota),
    FAKE_GRAVATAR_KEY,
    options,
  );
}

function error(status: number): unknown {
  const [code, message] = ERRORS[status] ?? ["error", `HTTP ${status}`];
  return { error: message, code };
}

function profile(p: FakePerson, hash: string): Record<string, unknown> {
  return {
    hash,
    display_name: fullName(p),
    profile_url: `https://gravatar.com/${p.linkedin}`,
    avatar_url: `https://0.gravatar.com/avatar/${hash}`,
    avatar_alt_text: "",
    location: `${p.city}, ${p.region}`,
    description: "Coffee, code and commerce.",
    job_title: p.title,
    company: p.company,
    verified_accounts: [
      {
        service_type: "twitter",
        service_label: "X",
        service_icon: "https://gravatar.com/icons/x-alt.svg",
        url: `https://twitter.com/${p.twitter}`,
        is_hidden: false,
      },
      {
        service_type: "linkedin",
        service_label: "LinkedIn",
        service_icon: "https://gravatar.com/icons/linkedin.svg",
        url: `https://www.linkedin.com/in/${p.linkedin}`,
        is_hidden: false,
      },
      {
        service_type: "github",
        service_label: "GitHub",
        service_icon: "https://gravatar.com/icons/github.svg",
        url: `https://github.com/${p.linkedin}`,
        is_hidden: true,
      },
    ],
    pronunciation: "",
    pronouns: "",
  };
}
