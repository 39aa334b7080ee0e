/**
 * `velvet destination …`: add a signed webhook (its secret printed once), list an account's
 * destinations with how their deliveries stand, send a test event, enable one its receiver
 * disabled (410 Gone), remove one.
 */
import type { Command } from "commander";
import { addDestination } from "../../features/destinations/add-destination.js";
import { DESTINATION_EVENTS } from "../../features/destinations/destination-events.js";
import { SecretUnreadableError } from "../../features/destinations/destination-secrets.js";
import { enableDestination } from "../../features/destinations/disable-destination.js";
import { listDestinations } from "../../features/destinations/list-destinations.js";
import { removeDestination } from "../../features/destinations/remove-destination.js";
import { testDestination } from "../../features/destinations/test-destination.js";
import { plural } from "../../lib/plural.js";
import { commandActor } from "../cli-actor.js";
import { CliError, printDryRun, printResult } from "../output.js";
import { parseId } from "../parse.js";
import { withDeps } from "../with-deps.js";

interface AccountOption {
  account: string;
  json?: boolean;
}

export function registerDestination(program: Command): void {
  const destination = program
    .command("destination")
    .description("hand customer events to a signed webhook, the Shopify customer or Klaviyo");
  const add = destination.command("add").description("add a destination to an account");

  add
    .command("webhook")
    .description("POST each event, signed as Standard Webhooks says, to a URL")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--url <url>", "the receiver's https URL")
    .option(
      "--events <list>",
      `comma-separated, from ${DESTINATION_EVENTS.join(", ")} (default: all)`,
    )
    .option("--json", "print one JSON object")
    .action(async (opts: AccountOption & { url: string; events?: string }) => {
      const added = await withDeps(
        (deps) =>
          addDestination(deps, {
            accountId: opts.account,
            kind: "webhook",
            fields: { url: opts.url },
            events: opts.events,
            actor: commandActor(),
          }),
        { providers: false },
      );
      const secret = added.revealed.secret ?? "";
      printResult(
        Boolean(opts.json),
        { destinationId: added.destinationId, secret, url: added.target, events: added.events },
        () =>
          [
            `Webhook ${added.destinationId} added: ${added.target} receives ${added.events.join(", ")}.`,
            `Signing secret (shown once, keep it with the receiver): ${secret}`,
          ].join("\n"),
      );
    });

  add
    .command("klaviyo")
    .description("set Velvet's properties (VIP, score, reasons) on each customer's Klaviyo profile")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption(
      "--api-key <key>",
      "a Klaviyo private API key (pk_…) with Profiles full access (and Data Privacy, to delete the profile of a person who asks to be erased)",
    )
    .option("--events <list>", "comma-separated, from customer.enriched, customer.forgotten")
    .option("--json", "print one JSON object")
    .action((opts: AccountOption & { apiKey: string; events?: string }) =>
      addAndPrint(opts, "klaviyo", { apiKey: opts.apiKey }),
    );

  add
    .command("shopify")
    .description("tag each VIP's Shopify customer on a connected store (needs write_customers)")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--connection <id>", "the store connection (velvet store list)", parseId)
    .option("--tag <tag>", "the customer tag", "VIP")
    .option("--events <list>", "comma-separated, from customer.vip, customer.forgotten")
    .option("--json", "print one JSON object")
    .action((opts: AccountOption & { connection: string; tag: string; events?: string }) =>
      addAndPrint(opts, "shopify", { connectionId: opts.connection, tag: opts.tag }),
    );

  destination
    .command("list")
    .description("list an account's destinations and how their deliveries stand")
    .requiredOption("--account <id>", "the account id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: AccountOption) => {
      const destinations = await withDeps(
        (deps) => listDestinations(deps.db.kysely, opts.account),
        {
          providers: false,
        },
      );
      printResult(Boolean(opts.json), { destinations }, () =>
        destinations.length === 0
          ? "No destinations."
          : destinations
              .map(
                (d) =>
                  `${d.destinationId}  ${d.kind}  ${d.target}  ${d.events.join(",")}  delivered ${d.delivered}, pending ${d.pending}, failed ${d.failed}${d.disabledAt === null ? "" : `  DISABLED since ${d.disabledAt}: ${d.disabledReason ?? ""}`}`,
              )
              .join("\n"),
      );
    });

  destination
    .command("test")
    .description("send a velvet.test event now and print the receiver's answer")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--destination <id>", "the destination id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: AccountOption & { destination: string }) => {
      const result = await withDeps(
        (deps) =>
          testDestination(deps, { accountId: opts.account, destinationId: opts.destination }),
        { providers: false },
      ).catch((error: unknown) => {
        if (!(error instanceof SecretUnreadableError)) throw error;
        // The command sends from this shell, not from the server: it needs the server's key.
        throw new CliError(
          `Not sent: ${error.message}. This command sends from this shell, so it needs the STORE_TOKEN_KEY the server runs with (run it with the server's environment), or use Send a test under Settings → Integrations → Destinations, which the server sends`,
        );
      });
      if (result === null) throw new CliError(`No destination ${opts.destination}`);
      printResult(Boolean(opts.json), result, () =>
        result.outcome === "delivered"
          ? `Delivered (${result.statusCode}).`
          : `Not delivered: ${result.error}`,
      );
      if (result.outcome !== "delivered") process.exitCode = 1;
    });

  destination
    .command("enable")
    .description("send to a destination again after its receiver disabled it (410 Gone)")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--destination <id>", "the destination id", parseId)
    .option("--json", "print one JSON object")
    .action(async (opts: AccountOption & { destination: string }) => {
      const enabled = await withDeps(
        (deps) =>
          enableDestination(deps, {
            accountId: opts.account,
            destinationId: opts.destination,
            actor: commandActor(),
          }),
        { providers: false },
      );
      printResult(Boolean(opts.json), { destinationId: opts.destination, enabled }, () =>
        enabled
          ? `Destination ${opts.destination} enabled: the next events are sent to it.`
          : `Destination ${opts.destination} was not disabled: nothing changed.`,
      );
    });

  destination
    .command("remove")
    .description("remove a destination: nothing more is sent there")
    .requiredOption("--account <id>", "the account id", parseId)
    .requiredOption("--destination <id>", "the destination id", parseId)
    .option("--yes", "remove (without it: say what would go and change nothing)")
    .option("--json", "print one JSON object")
    .action(async (opts: AccountOption & { destination: string; yes?: boolean }) => {
      if (!opts.yes) {
        const found = (
          await withDeps((deps) => listDestinations(deps.db.kysely, opts.account), {
            providers: false,
          })
        ).find((d) => d.destinationId === opts.destination);
        if (found === undefined) throw new CliError(`No destination ${opts.destination}`);
        printDryRun(
          Boolean(opts.json),
          {
            destinationId: found.destinationId,
            kind: found.kind,
            target: found.target,
            pending: found.pending,
          },
          `Would remove ${found.kind} destination ${found.destinationId} (${found.target}): nothing more is sent there, and its ${plural(found.pending, "pending delivery", "pending deliveries")} go with it.`,
          "remove it; this cannot be undone",
        );
        return;
      }
      await withDeps(
        (deps) =>
          removeDestination(deps, {
            accountId: opts.account,
            destinationId: opts.destination,
            actor: commandActor(),
          }),
        { providers: false },
      );
      printResult(
        Boolean(opts.json),
        { destinationId: opts.destination, removed: true },
        () => `Destination ${opts.destination} removed.`,
      );
    });
}

/** Adds a destination of a kind without a secret to reveal, and prints what was added. */
async function addAndPrint(
  opts: AccountOption & { events?: string },
  kind: "klaviyo" | "shopify",
  fields: Record<string, string>,
): Promise<void> {
  const added = await withDeps(
    (deps) =>
      addDestination(deps, {
        accountId: opts.account,
        kind,
        fields,
        events: opts.events,
        actor: commandActor(),
      }),
    { providers: false },
  );
  printResult(
    Boolean(opts.json),
    { destinationId: added.destinationId, target: added.target, events: added.events },
    () => `${added.target} added as ${added.destinationId}: receives ${added.events.join(", ")}.`,
  );
}
