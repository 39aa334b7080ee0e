/**
 * The destination kinds, registered once: each kind's declaration (for the CLI, which builds its
 * commands before any configuration is read) and how its driver is built from the configuration
 * (for main.ts's registry). The record is keyed by DestinationKind, the names each driver adds
 * to DestinationKindNames (db/schema.ts), so a kind named there but not registered here, one
 * registered without its name, or one registered under another kind's declaration does not
 * compile; nor does a driver built with a platform address its declaration does not name
 * (platform-address.ts).
 */
import type { Config } from "../../config.js";
import type { DestinationKind } from "../../db/schema.js";
import { shopifyAccess } from "../store-sync/connection-client.js";
import type { DestinationDeclaration } from "./destination-declaration.js";
import type { DestinationDriver } from "./destination-driver.js";
import { KLAVIYO_DESTINATION, klaviyoDriver } from "./klaviyo/klaviyo-driver.js";
import { platformAddress } from "./platform-address.js";
import { SHOPIFY_DESTINATION, shopifyDriver } from "./shopify/shopify-driver.js";
import { WEBHOOK_DESTINATION, webhookDriver } from "./webhook/webhook-driver.js";

interface DestinationKindEntry<K extends DestinationKind> {
  declaration: DestinationDeclaration & { kind: K };
  driver(config: Config): DestinationDriver;
}

const KINDS: { [K in DestinationKind]: DestinationKindEntry<K> } = {
  webhook: {
    declaration: WEBHOOK_DESTINATION,
    driver: (config) => webhookDriver({ allowPrivate: config.alerts.allowPrivateWebhooks }),
  },
  klaviyo: {
    declaration: KLAVIYO_DESTINATION,
    driver: (config) =>
      klaviyoDriver({
        baseUrl: platformAddress(config, KLAVIYO_DESTINATION),
        revision: config.destinations.klaviyoRevision,
      }),
  },
  shopify: {
    declaration: SHOPIFY_DESTINATION,
    driver: (config) => shopifyDriver(shopifyAccess(config)),
  },
};

/** Every kind's declaration, in the order the dashboard and the CLI offer them. */
export const DESTINATION_DECLARATIONS: readonly DestinationDeclaration[] = Object.values(KINDS).map(
  (k) => k.declaration,
);

/** Every kind's driver for this configuration. */
export function destinationDrivers(config: Config): DestinationDriver[] {
  return Object.values(KINDS).map((k) => k.driver(config));
}
