import { CommanderError } from "commander";
import { ConfigError } from "../config.js";
import { DatabaseUnavailableError } from "../db/database-unavailable.js";
import { MigrationError } from "../db/migrate.js";
import { AppError } from "../lib/app-error.js";
import { ListenError } from "../lib/listen-error.js";
import { CliError } from "./output.js";
import { buildProgramFor } from "./program.js";

export async function run(argv: string[]): Promise<void> {
  try {
    await (await buildProgramFor(argv)).parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      // Commander has already printed its message (or the help).
      process.exitCode = error.exitCode;
      return;
    }
    const known =
      error instanceof CliError ||
      error instanceof AppError ||
      error instanceof ConfigError ||
      error instanceof MigrationError ||
      error instanceof DatabaseUnavailableError ||
      error instanceof ListenError;
    process.stderr.write(
      `velvet: ${known ? (error as Error).message : String((error as Error)?.stack ?? error)}\n`,
    );
    // Exit now: a long-running command that failed to start must not linger on a thread or a
    // timer (a supervisor would think it is up).
    process.exit(1);
  }
}

run(process.argv);
