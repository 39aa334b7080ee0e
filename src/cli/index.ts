import { CommanderError } from "commander";
import { ConfigError, loadConfig } from "../config.js";
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
      `velvet: ${oneLine(known ? (error as Error).message : unexpected(error))}\n`,
    );
    // Exit now: a long-running command that failed to start must not linger on a thread or a
    // timer (a supervisor would think it is up).
    process.exit(1);
  }
}

/** Errors are one line on stderr, whatever the message holds. */
function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, " ").trim();
}

/**
 * An error no command expected: its message, and its stack only when LOG_LEVEL asks for debug
 * output (a stack trace tells the person at the terminal nothing about what to do).
 */
function unexpected(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  let level = "info";
  try {
    level = loadConfig().logLevel;
  } catch {
    // The configuration itself is broken: the message is all there is to say.
  }
  if ((level === "debug" || level === "trace") && error instanceof Error && error.stack) {
    return `unexpected error: ${error.stack.replace(/\n/g, " | ")}`;
  }
  return `unexpected error: ${message} (LOG_LEVEL=debug shows where it happened)`;
}

run(process.argv);
