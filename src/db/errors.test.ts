/** Which errors mean "the database is away" (503 with Retry-After) rather than a bug (500). */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "./errors.js";

const coded = (code: string, message = "x") => Object.assign(new Error(message), { code });

describe("isDatabaseUnavailable", () => {
  it.each([
    ["a terminated backend", coded("57P01", "terminating connection due to administrator command")],
    ["a server starting up", coded("57P03", "the database system is starting up")],
    ["a full PostgreSQL disk", coded("53100")],
    ["a standby after failover", coded("25006")],
    ["a refused connection", coded("ECONNREFUSED")],
    ["a reset connection", coded("ECONNRESET")],
    ["a full SQLite disk", coded("SQLITE_FULL", "database or disk is full")],
    ["an SQLite I/O error", coded("SQLITE_IOERR_WRITE")],
    ["pg's lost connection", new Error("Connection terminated unexpectedly")],
    [
      "pg's unusable client",
      new Error("Client has encountered a connection error and is not queryable"),
    ],
    ["pg's connect timeout", new Error("timeout exceeded when trying to connect")],
    [
      "a cause chain",
      new Error("the SQLite transaction was rolled back", { cause: coded("SQLITE_FULL") }),
    ],
    ["an AggregateError", new AggregateError([coded("ECONNREFUSED")], "")],
  ])("%s is unavailable", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ["a unique violation", coded("23505")],
    ["a syntax error", coded("42601")],
    ["an SQLite constraint", coded("SQLITE_CONSTRAINT_TRIGGER")],
    ["SQLite busy (its own 500 with Retry-After)", coded("SQLITE_BUSY")],
    ["a plain error", new Error("boom")],
    ["a rolled-back group with no cause", new Error("the SQLite transaction was rolled back")],
    ["not an error", "57P01"],
  ])("%s is not", (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
