/**
 * One closed list of error codes, one code → status table, one body shape: `{error, message}`
 * where `error` is the short name of the HTTP status. Anything not an AppError is a logged 500
 * whose body reveals nothing.
 */
import { STATUS_CODES } from "node:http";

export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ErrorBody {
  error: string;
  message: string;
}

export class AppError extends Error {
  override name = "AppError";
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    return errorBody(this.status, this.message);
  }
}

export function errorBody(status: number, message: string): ErrorBody {
  return { error: STATUS_CODES[status] ?? "Error", message };
}

export const MESSAGES = {
  unauthorized: "Invalid or missing API key",
  internal: "Failed to process order",
} as const;
