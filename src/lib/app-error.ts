/**
 * The one error a use case raises on purpose: a code from a closed list and a message the caller
 * may read. It knows nothing of HTTP; `http/errors.ts` maps each code to a status and the
 * contract's `{error, message}` body, and the CLI prints the message.
 */
export const ERROR_CODES = [
  "bad_request",
  "unauthorized",
  "forbidden",
  "not_found",
  "method_not_allowed",
  "conflict",
  "payload_too_large",
  "unsupported_media_type",
  "too_many_requests",
  "internal",
  "service_unavailable",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** Headers the answer must carry (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** The contract's exact messages that more than one place sends. */
export const MESSAGES = {
  unauthorized: "Invalid or missing API key",
  internal: "Failed to process order",
} as const;
