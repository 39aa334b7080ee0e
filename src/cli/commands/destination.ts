/**
 * `velvet destination …`: add a destination of any registered kind (its options from the kind's
 * declared fields; a webhook's secret printed once), list an account's
 * destinations with how their deliveries stand, send a test event, enable one its receiver
 * disabled (410 Gone), remove one.
 */
import type { Command } from "commander";
import { addDestination } from "../../features/destinations/add-destination.js";
import {
  type DestinationDeclaration,
  flagOf,
  optionKeyOf,
} from "../../features/destinations/destination-declaration.js";
import { DESTINATION_EVENTS } from "../../features/destinations/destination-events.js";
import { DESTINATION_DECLARATIONS } from "../../features/destinations/destination-kinds.js";
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
    // Kind-neutral: program.ts lists it without loading this module.
    .description(
      "hand customer events to other systems: a signed webhook, a CRM, a store (destination add --help lists them)",
    );
  const add = destination.command("add").description("add a destination to an account");
  // One subcommand per kind, its options from the kind's declared fields.
  for (const kind of DESTINATION_DECLARATIONS) addCommand(add, kind);

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

/** `velvet destination add <kind>`: an option per declared field, the events, `--json`. */
function addCommand(add: Command, kind: DestinationDeclaration): void {
  const command = add
    .command(kind.kind)
    .description(kind.summary)
    .requiredOption("--account <id>", "the account id", parseId);
  for (const field of kind.fields) {
    const flag = `--${flagOf(field)} ${field.cliValue}`;
    if (field.default !== undefined) command.option(flag, field.cliHelp, field.default);
    else if (field.type === "store") command.requiredOption(flag, field.cliHelp, parseId);
    else command.requiredOption(flag, field.cliHelp);
  }
  command
    .option(
      "--events <list>",
      `comma-separated, from ${kind.events.join(", ")} (default: ${kind.events.length === DESTINATION_EVENTS.length ? "all" : kind.events.join(", ")})`,
    )
    .option("--json", "print one JSON object")
    .action((opts: AccountOption & { events?: string } & Record<string, string>) =>
      addAndPrint(kind, opts),
    );
}

/** Adds a destination and prints what was added, and what it reveals this once. */
async function addAndPrint(
  kind: DestinationDeclaration,
  opts: AccountOption & { events?: string } & Record<string, string>,
): Promise<void> {
  const fields = Object.fromEntries(
    kind.fields.map((f) => [f.name, String(opts[optionKeyOf(f)] ?? "")]),
  );
  const added = await withDeps(
    (deps) =>
      addDestination(deps, {
        accountId: opts.account,
        kind: kind.kind,
        fields,
        events: opts.events,
        actor: commandActor(),
      }),
    { providers: false },
  );
  const { reveals } = kind;
  if (reveals === undefined) {
    printResult(
      Boolean(opts.json),
      { destinationId: added.destinationId, target: added.target, events: added.events },
      () => `${added.target} added as ${added.destinationId}: receives ${added.events.join(", ")}.`,
    );
    return;
  }
  const revealed = added.revealed[reveals.name] ?? "";
  printResult(
    Boolean(opts.json),
    {
      destinationId: added.destinationId,
      [reveals.name]: revealed,
      [reveals.targetName]: added.target,
      events: added.events,
    },
    () =>
      [
        `${kind.label} ${added.destinationId} added: ${added.target} receives ${added.events.join(", ")}.`,
        `${reveals.label} (shown once, ${reveals.keep}): ${revealed}`,
      ].join("\n"),
  );
}
