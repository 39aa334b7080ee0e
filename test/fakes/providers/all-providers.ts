/**
 * All four fakes at once, with the environment that points Velvet at them (for `startTestApp`'s
 * `env`, or a benchmark's child process). Options apply to every fake.
 */

import type { ProviderName } from "../../../src/features/enrichment/providers/provider.js";
import { PROVIDER_NAMES } from "../../../src/features/enrichment/providers/provider-registry.js";
import { startFakeEnrichLayer } from "./fake-enrichlayer.js";
import { startFakeFullContact } from "./fake-fullcontact.js";
import { type GravatarQuota, startFakeGravatar } from "./fake-gravatar.js";
import { startFakePdl } from "./fake-pdl.js";
import type { FakeProvider, FakeProviderOptions } from "./fake-server.js";

export interface FakeProviders {
  pdl: FakeProvider;
  enrichlayer: FakeProvider;
  fullcontact: FakeProvider;
  gravatar: FakeProvider;
  /** PDL_API_KEY, PDL_BASE_URL, … GRAVATAR_ENABLED: everything Velvet needs to use the fakes. */
  env: Record<string, string>;
  /** The same for these providers only (a test that spells out what each of them bills). */
  envFor(names: readonly ProviderName[]): Record<string, string>;
  all(): FakeProvider[];
  close(): Promise<void>;
}

export async function startFakeProviders(
  options: FakeProviderOptions & { gravatarQuotaPerHour?: GravatarQuota } = {},
): Promise<FakeProviders> {
  const [pdl, enrichlayer, fullcontact, gravatar] = await Promise.all([
    startFakePdl(options),
    startFakeEnrichLayer(options),
    startFakeFullContact(options),
    startFakeGravatar({ ...options, quotaPerHour: options.gravatarQuotaPerHour }),
  ]);
  const all = () => [pdl, enrichlayer, fullcontact, gravatar];
  const envs: Record<ProviderName, Record<string, string>> = {
    pdl: { PDL_API_KEY: pdl.apiKey ?? "", PDL_BASE_URL: pdl.url },
    enrichlayer: {
      ENRICHLAYER_API_KEY: enrichlayer.apiKey ?? "",
      ENRICHLAYER_BASE_URL: enrichlayer.url,
    },
    fullcontact: {
      FULLCONTACT_API_KEY: fullcontact.apiKey ?? "",
      FULLCONTACT_BASE_URL: fullcontact.url,
    },
    gravatar: { GRAVATAR_ENABLED: "true", GRAVATAR_BASE_URL: gravatar.url },
  };
  const envFor = (names: readonly ProviderName[]) =>
    Object.assign({}, ...names.map((name) => envs[name])) as Record<string, string>;
  return {
    pdl,
    enrichlayer,
    fullcontact,
    gravatar,
    env: envFor(PROVIDER_NAMES),
    envFor,
    all,
    async close() {
      await Promise.all(all().map((fake) => fake.close()));
    },
  };
}
