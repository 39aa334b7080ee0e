/**
 * One code → status table and one body shape: `{error, message}` where `error` is the short name
 * of the HTTP status. The codes and the error itself live below the features (lib/app-error.ts);
 * anything not an AppError is a logged 500 whose body reveals nothing.
 */
import { STATUS_CODES } from "node:http";
import type { AppError, ErrorCode } from "../lib/app-error.js";

export const ERROR_STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  service_unavailable: 503,
};

export interface ErrorBody {
  error: string;
  message: string;
}

export function errorBody(status: number, message: string): ErrorBody {
  return { error: STATUS_CODES[status] ?? "Error", message };
}

/** The status and contract body for an error a use case raised. */
export function appErrorAnswer(error: AppError): { status: number; body: ErrorBody } {
  const status = ERROR_STATUS[error.code];
  return { status, body: errorBody(status, error.message) };
}
