/** Recognises a unique-constraint violation on either engine. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return (
    code === "23505" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY"
  );
}

/**
 * Another process held SQLite's write lock for longer than SQLITE_BUSY_TIMEOUT_MS: nothing of
 * the transaction was written. An API request answers 500 with Retry-After (http/app.ts).
 */
export class DatabaseBusyError extends Error {
  override name = "DatabaseBusyError";
  /** How long a client should wait before trying again, in seconds. */
  readonly retryAfterSeconds = 1;
}

/** SQLITE_BUSY and its extended codes: the lock is held elsewhere; trying again can succeed. */
export function isBusy(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}

/** How long a client is asked to wait when the database is away (Retry-After, seconds). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL SQLSTATEs that mean the server is away or cannot take writes now, not that the
 * statement is wrong: connection exceptions (class 08), shutdowns and restarts (57P01–57P03),
 * insufficient resources (class 53: disk full, out of memory, too many connections), and a
 * read-only server (25006: a standby after a failover).
 */
function isUnavailableSqlState(code: string): boolean {
  return (
    code.startsWith("08") ||
    code.startsWith("53") ||
    code === "57P01" ||
    code === "57P02" ||
    code === "57P03" ||
    code === "25006"
  );
}

const UNAVAILABLE_ERRNOS = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "ENOSPC",
  "EIO",
]);

/** SQLite: the disk is full or failing, or the file cannot be opened. */
function isUnavailableSqliteCode(code: string): boolean {
  return (
    code === "SQLITE_FULL" ||
    code.startsWith("SQLITE_IOERR") ||
    code.startsWith("SQLITE_CANTOPEN") ||
    code === "SQLITE_NOMEM"
  );
}

/** pg's errors for a lost or never-made connection carry no code, only these messages. */
const LOST_CONNECTION =
  /^(Connection terminated|Client has encountered a connection error|Client was closed and is not queryable|timeout exceeded when trying to connect)/;

/**
 * The database cannot be reached or cannot write (server down or restarting, connection lost,
 * disk full): nothing of the work was written, and the same request can succeed later. Follows
 * the cause chain (and the first error of an AggregateError, as a refused connection to a host
 * with several addresses gives).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") {
      if (isUnavailableSqlState(code) || UNAVAILABLE_ERRNOS.has(code)) return true;
      if (isUnavailableSqliteCode(code)) return true;
    }
    if (LOST_CONNECTION.test(e.message)) return true;
    const inner = e instanceof AggregateError ? e.errors[0] : undefined;
    e = inner ?? e.cause;
  }
  return false;
}
