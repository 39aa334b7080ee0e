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
