/**
 * Turns the failures of a first connection into one line an operator can act on: a PostgreSQL
 * database that does not exist (with the command that creates it), a server that refuses the
 * connection, a refused login. Anything else is left to the caller.
 */
import type { DatabaseTarget } from "../config.js";

export class DatabaseUnavailableError extends Error {
  override name = "DatabaseUnavailableError";
}

/** The first error in a cause chain that carries a code (pg's SQLSTATE or a socket errno). */
function codeOf(error: unknown): { code: string; message: string } | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") return { code, message: e.message };
    const inner = e instanceof AggregateError ? e.errors[0] : undefined;
    e = inner ?? e.cause;
  }
  return null;
}

export function databaseUnavailable(
  error: unknown,
  target: DatabaseTarget,
): DatabaseUnavailableError | null {
  if (target.kind !== "postgres") return null;
  const found = codeOf(error);
  if (found === null) return null;
  const url = new URL(target.url);
  const name = decodeURIComponent(url.pathname.replace(/^\//, "")) || "postgres";
  const server = `${url.hostname}:${url.port || "5432"}`;
  const user = url.username ? ` -U ${decodeURIComponent(url.username)}` : "";
  switch (found.code) {
    case "3D000":
      return new DatabaseUnavailableError(
        `PostgreSQL database "${name}" does not exist on ${server}. Create it with ` +
          `\`createdb -h ${url.hostname} -p ${url.port || "5432"}${user} ${name}\` ` +
          `(or \`CREATE DATABASE "${name}";\` in psql), then start again.`,
        { cause: error },
      );
    case "ECONNREFUSED":
      return new DatabaseUnavailableError(
        `cannot reach PostgreSQL at ${server}: connection refused. Is the server running, and is DATABASE_URL right?`,
        { cause: error },
      );
    case "28P01":
    case "28000":
      return new DatabaseUnavailableError(
        `PostgreSQL at ${server} refused the login: ${found.message}. Check the user and password in DATABASE_URL.`,
        { cause: error },
      );
    default:
      return null;
  }
}
