/**
 * `velvet store …`: connect a Shopify or WooCommerce store for live sync, list connections,
 * pause, resume or disconnect one. Credentials are verified with one real call before they are
 * saved, stored encrypted and never printed (only their last 4 characters). `connect … --dry-run`
 * checks them the same way and shows what the backfill would read and cost, saving nothing.
 */
import { type Command, InvalidArgumentError } from "commander";
import type { AppDeps } from "../../app-deps.js";
import { DEFAULT_BACKFILL_DAYS } from "../../features/store-sync/connect-store.js";
import type { Credentials } from "../../features/store-sync/credentials.js";
import { estimateLines } from "../../features/store-sync/describe-estimate.js";
import { estimateBackfill } from "../../features/store-sync/estimate-backfill.js";
import { listConnections } from "../../features/store-sync/list-connections.js";
import {
  type ConnectionChange,
  changeConnection,
} from "../../features/store-sync/manage-connection.js";
import { type PlatformHttp, platformHttpFor } from "../../features/store-sync/platform-http.js";
import { describeWebhooks } from "../../features/store-webhooks/describe-webhooks.js";
import {
  connectLiveStore,
  disconnectLiveStore,
} from "../../features/store-webhooks/live-connection.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

function parseDays(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value.trim()) || n > 3650) {
    throw new InvalidArgumentError("the backfill is a whole number of days from 0 to 3650");
  }
  return n;
}

interface ConnectOptions {
  account: string;
  backfillDays: number;
  dryRun?: boolean;
  json?: boolean;
}

/** Runs `work` with the process's dependencies and a platform client closed afterwards. */
function withPlatformHttp<T>(work: (deps: AppDeps, http: PlatformHttp) => Promise<T>): Promise<T> {
  return withDeps(
    async (deps) => {
      const http = platformHttpFor(deps.config);
      try {
        return await work(deps, http);
      } finally {
        await http.close();
      }
    },
    { providers: false },
  );
}

async function connectAndPrint(shop: string, credentials: Credentials, opts: ConnectOptions) {
  if (opts.dryRun) return estimateAndPrint(shop, credentials, opts);
  const connected = await withPlatformHttp((deps, http) =>
    connectLiveStore(deps, http, {
      accountId: opts.account,
      shop,
      credentials,
      backfillDays: opts.backfillDays,
      actor: commandActor(),
    }),
  );
  printResult(Boolean(opts.json), connected, () =>
    [
      `${connected.reconnected ? "Reconnected" : "Connected"} ${connected.shop}: connection ${connected.connectionId}.`,
      connected.reconnected
        ? "New credentials saved; the sync carries on where it was."
        : `The worker (velvet serve or velvet worker) pulls its orders, the last ${connected.backfillDays} days first.`,
      ...(connected.backfillCut === null
        ? []
        : [
            `Only ${connected.backfillDays} of the ${connected.backfillCut.asked} days asked: ${connected.backfillCut.reason}.`,
          ]),
      connected.webhooks.webhooks === "active"
        ? "Webhooks subscribed: new orders arrive as they are placed."
        : `Webhooks ${connected.webhooks.webhooks}: ${connected.webhooks.note ?? "not subscribed"}.`,
    ].join("\n"),
  );
}

/** `--dry-run`: the credentials checked, the backfill counted and priced; nothing written. */
async function estimateAndPrint(shop: string, credentials: Credentials, opts: ConnectOptions) {
  const estimate = await withPlatformHttp((deps, http) =>
    estimateBackfill(deps, http, {
      accountId: opts.account,
      shop,
      credentials,
      backfillDays: opts.backfillDays,
    }),
  );
  printResult(Boolean(opts.json), { dryRun: true, ...estimate }, () =>
    [
      "Dry run: nothing was saved. Run again without --dry-run to connect.",
      ...estimateLines(estimate, "a shorter --backfill-days"),
    ].join("\n"),
  );
}

interface ShopifyConnectOptions extends ConnectOptions {
  shop: string;
  token?: string;
  clientId?: string;
  clientSecret?: string;
  webhookSecret?: string;
}

function shopifyCredentials(opts: ShopifyConnectOptions): Credentials {
  const app = opts.clientId !== undefined || opts.clientSecret !== undefined;
  if (app === (opts.token !== undefined) || (app && (!opts.clientId || !opts.clientSecret))) {
    throw new CliError(
      "give either --client-id and --client-secret (a Dev Dashboard app) or --token (an Admin API token made in the shop's admin)",
    );
  }
  if (app && opts.webhookSecret !== undefined) {
    throw new CliError(
      "--webhook-secret is for an app connected with --token: Shopify signs a Dev Dashboard app's webhooks with its client secret",
    );
  }
  return app
    ? { platform: "shopify", clientId: opts.clientId, clientSecret: opts.clientSecret }
    : {
        platform: "shopify",
        token: opts.token,
        ...(opts.webhookSecret === undefined ? {} : { webhookSecret: opts.webhookSecret }),
      };
}

const DRY_RUN_HELP =
  "check the credentials and show what the backfill would read and cost; save nothing";

export function registerStore(program: Command): void {
  const store = program.command("store").description("connect Shopify and WooCommerce stores");
  const connect = store.command("connect").description("connect a store for live order sync");

  connect
    .command("shopify")
    .description(
      "connect a Shopify shop: a Dev Dashboard app's client id and secret, or an Admin API token",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--shop <domain>", "the shop's domain, such as acme.myshopify.com")
    .option("--client-id <id>", "the Dev Dashboard app's client id")
    .option("--client-secret <secret>", "the Dev Dashboard app's client secret")
    .option("--token <token>", "an Admin API access token (shpat_…) of an app made in the admin")
    .option(
      "--webhook-secret <secret>",
      "with --token: the app's API secret key, which signs its webhooks (without it: polling only)",
    )
    .option(
      "--backfill-days <n>",
      "read the orders of the last N days first",
      parseDays,
      DEFAULT_BACKFILL_DAYS,
    )
    .option("--dry-run", DRY_RUN_HELP)
    .option("--json", "print one JSON object")
    .action((opts: ShopifyConnectOptions) =>
      connectAndPrint(opts.shop, shopifyCredentials(opts), opts),
    );

  connect
    .command("woocommerce")
    .description(
      "connect a WooCommerce store with a REST API key (Read/Write: Velvet creates its order webhooks; Read: polling only)",
    )
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--url <url>", "the store's address, such as https://shop.example")
    .requiredOption("--key <ck>", "the consumer key (ck_…)")
    .requiredOption("--secret <cs>", "the consumer secret (cs_…)")
    .option(
      "--backfill-days <n>",
      "read the orders of the last N days first",
      parseDays,
      DEFAULT_BACKFILL_DAYS,
    )
    .option("--dry-run", DRY_RUN_HELP)
    .option("--json", "print one JSON object")
    .action((opts: ConnectOptions & { url: string; key: string; secret: string }) =>
      connectAndPrint(
        opts.url,
        { platform: "woocommerce", key: opts.key, secret: opts.secret },
        opts,
      ),
    );

  store
    .command("list")
    .description("store connections: state, webhooks, last sync, orders synced, last error")
    .option("--account <id>", "only this account's", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: { account?: string; json?: boolean }) => {
      const { connections, config } = await withDeps(
        async (deps) => ({
          connections: await listConnections(deps.db.kysely, opts.account ?? null),
          config: deps.config,
        }),
        { providers: false },
      );
      printResult(Boolean(opts.json), { connections }, () =>
        connections.length === 0
          ? "No store connections."
          : connections
              .map((c) =>
                [
                  `${c.connectionId}  ${c.platform}  ${c.shop}  ${c.state}  credentials ${c.credentials}`,
                  `  account ${c.accountId}  last sync ${c.lastSyncAt ?? "never"}  orders synced ${c.ordersSynced}  skipped ${c.ordersSkipped}${describeSkips(c.skipReasons)}`,
                  `  ${describeWebhooks(c, config.storeSync)}`,
                  ...(c.lastError === null ? [] : [`  last error: ${c.lastError}`]),
                ].join("\n"),
              )
              .join("\n"),
      );
    });

  const change = (name: ConnectionChange, description: string) =>
    store
      .command(name)
      .description(description)
      .argument("<connectionId>", "the connection id", parseId)
      .option("--json", "print one JSON object");
  const run = (name: ConnectionChange, id: string, json: boolean, done: string) =>
    withDeps((deps) => changeConnection(deps, name, id, null, commandActor()), {
      providers: false,
    }).then((result) => printResult(json, result, () => `Connection ${id} ${done}.`));
  const disconnect = (id: string, json: boolean) =>
    withPlatformHttp((deps, http) =>
      disconnectLiveStore(deps, http, id, null, commandActor()),
    ).then((result) =>
      printResult(json, result, () =>
        [
          `Connection ${id} disconnected.`,
          ...(result.webhooksLeft === null ? [] : [`${result.webhooksLeft}.`]),
        ].join("\n"),
      ),
    );
  for (const [name, description, done] of [
    ["pause", "stop syncing a store until resumed", "paused"],
    ["resume", "sync a paused or broken store again, now", "resumed: it syncs now"],
  ] as const)
    change(name, description).action((id: string, opts: { json?: boolean }) =>
      run(name, id, Boolean(opts.json), done),
    );
  change("disconnect", "forget a store's connection and credentials (its orders stay)")
    .option("--yes", "disconnect (without it: say what would happen and change nothing)")
    .action(async (id: string, opts: { json?: boolean; yes?: boolean }) => {
      if (opts.yes) return disconnect(id, Boolean(opts.json));
      const connections = await withDeps((deps) => listConnections(deps.db.kysely, null), {
        providers: false,
      });
      const found = connections.find((c) => c.connectionId === id);
      if (!found) throw new CliError(`No store connection ${id}`);
      printDryRun(
        Boolean(opts.json),
        { connectionId: id, platform: found.platform, shop: found.shop, state: found.state },
        `Would disconnect ${found.platform} store ${found.shop} (account ${found.accountId}): Velvet's webhooks are removed from the store, its credentials are forgotten and it is no longer synced; the ${plural(found.ordersSynced, "order")} already synced stay.`,
        "disconnect it; connecting again needs the credentials",
      );
    });
}

/** ` (test order 2, awaiting payment 1)`, or nothing. */
export function describeSkips(reasons: Record<string, number>): string {
  const parts = Object.entries(reasons).map(([reason, count]) => `${reason} ${count}`);
  return parts.length === 0 ? "" : ` (${parts.join(", ")})`;
}
