/**
 * The enrichment providers Velvet knows, registered once: each provider's declaration, which
 * sits with its adapter (`<name>.ts`, declareProvider: label, precedence, variables, what turns
 * it on, what it brings, how its adapter is built). `ProviderName` is the names the providers'
 * files add to `ProviderNames` (provider.ts), and this record is keyed by them, so a provider
 * file without its entry here, or an entry for no provider, does not compile; nor does any
 * `Record<ProviderName, …>` that leaves one out.
 *
 * config.ts reads the variables the declarations name (provider-settings.ts): this file and the
 * adapters it reaches sit below config.ts and import nothing above lib/ (the layer rules check
 * it).
 */
import { ENRICHLAYER_PROVIDER } from "./enrichlayer.js";
import { FULLCONTACT_PROVIDER } from "./fullcontact.js";
import { GRAVATAR_PROVIDER } from "./gravatar.js";
import { PDL_PROVIDER } from "./pdl.js";
import type { ProviderName } from "./provider.js";
import type { ProviderDeclaration } from "./provider-declaration.js";

export const PROVIDERS = {
  pdl: PDL_PROVIDER,
  enrichlayer: ENRICHLAYER_PROVIDER,
  fullcontact: FULLCONTACT_PROVIDER,
  gravatar: GRAVATAR_PROVIDER,
} as const satisfies { [N in ProviderName]: ProviderDeclaration };

/** Every provider, in precedence order: the order they are asked and their answers merged. */
export const PROVIDER_NAMES: readonly ProviderName[] = (
  Object.keys(PROVIDERS) as ProviderName[]
).sort((a, b) => PROVIDERS[a].precedence - PROVIDERS[b].precedence);

/** The label of a provider name as stored (a name no longer declared shows as itself). */
export function providerLabel(name: string): string {
  return name in PROVIDERS ? PROVIDERS[name as ProviderName].label : name;
}

export { turnOnSetting } from "./provider-declaration.js";
