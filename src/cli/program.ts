/**
 * The `velvet` command: one program, each top-level command in its own file. Only the file of
 * the command being run is loaded (each pulls in the database, the features it uses and their
 * packages), so `velvet --help` and every command start in a fraction of a second.
 */
import { readFileSync } from "node:fs";
import { Command, type HelpContext } from "commander";

type Register = (program: Command) => void;

interface TopCommand {
  name: string;
  description: string;
  load: () => Promise<Register>;
}

/** In the order `velvet --help` lists them; each description is the one its file registers. */
export const TOP_COMMANDS: readonly TopCommand[] = [
  {
    name: "serve",
    description:
      "run the HTTP server (public API and dashboard) and, unless WORKER_ENABLED=false, the job worker; migrates the database first",
    load: async () => (await import("./commands/serve.js")).registerServe,
  },
  {
    name: "migrate",
    description: "apply pending database migrations",
    load: async () => (await import("./commands/migrate.js")).registerMigrate,
  },
  {
    name: "account",
    description: "create and configure merchant accounts",
    load: async () => (await import("./commands/account.js")).registerAccount,
  },
  {
    name: "alerts",
    description: "VIP alerts and their delivery attempts",
    load: async () => (await import("./commands/alerts.js")).registerAlerts,
  },
  {
    name: "key",
    description: "manage API keys",
    load: async () => (await import("./commands/key.js")).registerKey,
  },
  {
    name: "usage",
    description:
      "enrichments charged in a month (UTC) and their cost, beside what each provider billed",
    load: async () => (await import("./commands/usage.js")).registerUsage,
  },
  {
    name: "worker",
    description:
      "run background jobs only (no HTTP), migrating the database first; stops on SIGTERM/SIGINT",
    load: async () => (await import("./commands/worker.js")).registerWorker,
  },
  {
    name: "jobs",
    description: "the background job queue: list and retry",
    load: async () => (await import("./commands/jobs.js")).registerJobs,
  },
  {
    name: "customer",
    description: "inspect, export and erase customers",
    load: async () => (await import("./commands/customer.js")).registerCustomer,
  },
  {
    name: "data",
    description: "load reference data",
    load: async () => (await import("./commands/data.js")).registerData,
  },
  {
    name: "audit",
    description: "the account's audit trail",
    load: async () => (await import("./commands/audit.js")).registerAudit,
  },
  {
    name: "import",
    description: "backfill a store's history from a file",
    load: async () => (await import("./commands/import.js")).registerImport,
  },
  {
    name: "store",
    description: "connect Shopify and WooCommerce stores",
    load: async () => (await import("./commands/store.js")).registerStore,
  },
  {
    name: "destination",
    description:
      "hand customer events to other systems: a signed webhook, a CRM, a store (destination add --help lists them)",
    load: async () => (await import("./commands/destination.js")).registerDestination,
  },
  {
    name: "demo",
    description:
      "add a sample store history to an account (marked as sample, never billed or alerted), or remove it",
    load: async () => (await import("./commands/demo.js")).registerDemo,
  },
  {
    name: "user",
    description: "an account's team: log-ins and roles",
    load: async () => (await import("./commands/user.js")).registerUser,
  },
];

/** The package's version: package.json is two levels up from src/cli/ and from dist/cli/. */
export const VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;

/**
 * A usage error is one line on stderr, as every other error is ("velvet: required option
 * '--account <id>' not specified"); the usage itself is for `--help`. Subcommands inherit this.
 */
function writeError(message: string, write: (text: string) => void): void {
  const text = message
    .replace(/^error: /, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
  write(`velvet: ${text}${text.includes("--help") ? "" : " (see --help)"}\n`);
}

/**
 * A command that, called without the subcommand it needs, says so in one line instead of
 * printing its whole usage on stderr (commander's default); `--help` still shows the usage.
 */
class VelvetCommand extends Command {
  override createCommand(name?: string): Command {
    return new VelvetCommand(name);
  }

  override help(context?: HelpContext | ((text: string) => string)): never {
    if (typeof context !== "object" || !context.error) return super.help(context as HelpContext);
    const path: string[] = [];
    for (let c: Command | null = this; c.parent !== null; c = c.parent) path.unshift(c.name());
    const where = path.join(" ");
    const names = this.commands.map((c) => c.name()).filter((name) => name !== "help");
    const what = where === "" ? "give a command" : `"${where}" needs a command`;
    return this.error(
      `${what}: ${names.join(", ")} (velvet ${where === "" ? "" : `${where} `}--help describes them)`,
      { exitCode: 1, code: "velvet.missingCommand" },
    );
  }
}

function emptyProgram(): Command {
  return new VelvetCommand("velvet")
    .description("Velvet: order intake and VIP detection")
    .version(VERSION, "-v, --version", "print Velvet's version")
    .configureOutput({ outputError: writeError })
    .exitOverride();
}

/** The whole program, every command loaded (for tests that walk it). */
export async function buildProgram(): Promise<Command> {
  const program = emptyProgram();
  for (const command of TOP_COMMANDS) (await command.load())(program);
  return program;
}

/**
 * The program as `argv` needs it: the named top-level command loaded, the others listed by name
 * and description only (for `velvet --help` and commander's "did you mean" on a typo).
 */
export async function buildProgramFor(argv: readonly string[]): Promise<Command> {
  const program = emptyProgram();
  const words = argv.slice(2).filter((arg) => !arg.startsWith("-"));
  // `velvet help account` is `velvet account --help`.
  const named = words[0] === "help" ? words[1] : words[0];
  for (const command of TOP_COMMANDS) {
    if (command.name === named) (await command.load())(program);
    else program.command(command.name).description(command.description);
  }
  return program;
}
