/**
 * The enrichment providers Velvet knows, each declared once: its name (the key), the label
 * people read, its precedence when two providers disagree (1 wins), the prefix of its
 * environment variables (`<PREFIX>_API_KEY`, `_BASE_URL`, `_RATE_LIMIT_PER_MIN`, `_PRICE_USD`,
 * and `_ENABLED` for one a flag turns on; read by provider-settings.ts) with their defaults,
 * what turns it on and what it brings. `ProviderName` is this record's keys, so a provider
 * cannot exist without a label, a precedence and its variables; the adapters' record
 * (features/enrichment/providers/provider-adapters.ts) and every `Record<ProviderName, …>` fail
 * to compile until they cover it.
 *
 * It sits beside config.ts, below the features, because config.ts reads the variables it names.
 */

export interface ProviderDeclaration {
  /** As the provider spells its own name. */
  label: string;
  /** Most trusted first: identity data, then social, then public records. Unique. */
  precedence: number;
  /** The variables' prefix: `PDL` for PDL_API_KEY and the rest. */
  envPrefix: string;
  /**
   * What turns it on: `key`, its `<PREFIX>_API_KEY`; `flag`, `<PREFIX>_ENABLED=true` or a key
   * (a provider that answers without one).
   */
  turnedOnBy: "key" | "flag";
  /** What it brings, as the operator reads it where no provider is on ("job, company"). */
  brings: string;
  defaults: {
    baseUrl: string;
    /** Requests a minute; a function for a pace that depends on the key (Gravatar's quotas). */
    ratePerMinute: number | ((apiKey: string | undefined) => number);
    /** USD billed per answered lookup (docs/configuration.md gives the sources). */
    priceUsd: string;
  };
}

/** Gravatar's default hourly quotas (https://docs.gravatar.com/rest-api, "Rate Limits"). */
const GRAVATAR_QUOTA_PER_HOUR = { keyless: 100, keyed: 1_000 } as const;

/**
 * Gravatar's pace without GRAVATAR_RATE_LIMIT_PER_MIN: its hourly quota for the tier the key
 * gives, paced evenly by the provider's token bucket (a request every 36 s without a key, every
 * 3.6 s with one), so no hour holds more than Gravatar allows.
 */
export function gravatarQuotaPerMinute(apiKey: string | undefined): number {
  const keyed = (apiKey ?? "").trim() !== "";
  return (keyed ? GRAVATAR_QUOTA_PER_HOUR.keyed : GRAVATAR_QUOTA_PER_HOUR.keyless) / 60;
}

export const PROVIDERS = {
  pdl: {
    label: "People Data Labs",
    precedence: 1,
    envPrefix: "PDL",
    turnedOnBy: "key",
    brings: "job, seniority, company",
    defaults: { baseUrl: "https://api.peopledatalabs.com", ratePerMinute: 100, priceUsd: "0.28" },
  },
  enrichlayer: {
    label: "EnrichLayer",
    precedence: 2,
    envPrefix: "ENRICHLAYER",
    turnedOnBy: "key",
    brings: "social profiles, job",
    defaults: { baseUrl: "https://enrichlayer.com", ratePerMinute: 300, priceUsd: "0.30" },
  },
  fullcontact: {
    label: "FullContact",
    precedence: 3,
    envPrefix: "FULLCONTACT",
    turnedOnBy: "key",
    brings: "income, net worth, home value",
    defaults: { baseUrl: "https://api.fullcontact.com", ratePerMinute: 600, priceUsd: "0" },
  },
  gravatar: {
    label: "Gravatar",
    precedence: 4,
    envPrefix: "GRAVATAR",
    turnedOnBy: "flag",
    brings:
      "public profile and linked social accounts, free of charge; it sends Gravatar the SHA-256 hash of each new customer's e-mail address, never the address itself",
    defaults: {
      baseUrl: "https://api.gravatar.com",
      ratePerMinute: gravatarQuotaPerMinute,
      priceUsd: "0",
    },
  },
} as const satisfies Record<string, ProviderDeclaration>;

export type ProviderName = keyof typeof PROVIDERS;

/** Every provider, in precedence order: the order they are asked and their answers merged. */
export const PROVIDER_NAMES: readonly ProviderName[] = (
  Object.keys(PROVIDERS) as ProviderName[]
).sort((a, b) => PROVIDERS[a].precedence - PROVIDERS[b].precedence);

/** The setting that turns a provider on, as an operator writes it: `PDL_API_KEY`, `GRAVATAR_ENABLED=true`. */
export function turnOnSetting(declaration: ProviderDeclaration): string {
  const p = declaration.envPrefix;
  return declaration.turnedOnBy === "key" ? `${p}_API_KEY` : `${p}_ENABLED=true`;
}

/** The label of a provider name as stored (a name no longer declared shows as itself). */
export function providerLabel(name: string): string {
  return name in PROVIDERS ? PROVIDERS[name as ProviderName].label : name;
}
