/**
 * Every registered provider's fake at once, with the environment that points Velvet at them (for
 * `startTestApp`'s `env`, or a benchmark's child process). Options apply to every fake. A
 * provider's fake is one entry in STARTERS, keyed by ProviderName (the compiler asks for it);
 * its variables follow from the provider's declaration (its prefix, what turns it on).
 */

import type { ProviderName } from "../../../src/features/enrichment/providers/provider.js";
import {
  PROVIDER_NAMES,
  PROVIDERS,
} from "../../../src/features/enrichment/providers/provider-registry.js";
import { startFakeEnrichLayer } from "./fake-enrichlayer.js";
import { startFakeFullContact } from "./fake-fullcontact.js";
import { type GravatarQuota, startFakeGravatar } from "./fake-gravatar.js";
import { startFakePdl } from "./fake-pdl.js";
import type { FakeProvider, FakeProviderOptions } from "./fake-server.js";

type StartOptions = FakeProviderOptions & { gravatarQuotaPerHour?: GravatarQuota };

/** How each provider's fake starts. */
const STARTERS: { [N in ProviderName]: (options: StartOptions) => Promise<FakeProvider> } = {
  pdl: startFakePdl,
  enrichlayer: startFakeEnrichLayer,
  fullcontact: startFakeFullContact,
  gravatar: (options) =>
    startFakeGravatar({ ...options, quotaPerHour: options.gravatarQuotaPerHour }),
};

export type FakeProviders = { [N in ProviderName]: FakeProvider } & {
  /** PDL_API_KEY, PDL_BASE_URL, … GRAVATAR_ENABLED: everything Velvet needs to use the fakes. */
  env: Record<string, string>;
  /** The same for these providers only (a test that spells out what each of them bills). */
  envFor(names: readonly ProviderName[]): Record<string, string>;
  all(): FakeProvider[];
  close(): Promise<void>;
};

/** What turns a provider on at its fake: its key (or, for one a flag turns on, the flag) and address. */
function envOf(name: ProviderName, fake: FakeProvider): Record<string, string> {
  const { envPrefix: p, turnedOnBy } = PROVIDERS[name];
  const on =
    turnedOnBy === "flag" ? { [`${p}_ENABLED`]: "true" } : { [`${p}_API_KEY`]: fake.apiKey ?? "" };
  return { ...on, [`${p}_BASE_URL`]: fake.url };
}

export async function startFakeProviders(options: StartOptions = {}): Promise<FakeProviders> {
  const started = await Promise.all(PROVIDER_NAMES.map((name) => STARTERS[name](options)));
  const fakes = Object.fromEntries(PROVIDER_NAMES.map((name, i) => [name, started[i]])) as {
    [N in ProviderName]: FakeProvider;
  };
  const all = () => PROVIDER_NAMES.map((name) => fakes[name]);
  const envFor = (names: readonly ProviderName[]) =>
    Object.assign({}, ...names.map((name) => envOf(name, fakes[name]))) as Record<string, string>;
  return {
    ...fakes,
    env: envFor(PROVIDER_NAMES),
    envFor,
    all,
    async close() {
      await Promise.all(all().map((fake) => fake.close()));
    },
  };
}
