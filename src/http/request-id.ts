/**
 * Request ids: a client (or the proxy in front) may send `X-Request-Id`; a value that is short
 * and plain enough to be safe in a header and a log line is kept, anything else is replaced by
 * a new UUIDv7. The id goes back on every response and on the request's log line (`requestId`),
 * and onto the jobs the request enqueues, so one order can be followed to its alert.
 */
import type { IncomingMessage } from "node:http";
import { newId } from "../lib/ids.js";

export const REQUEST_ID_HEADER = "x-request-id";

/** Letters, digits and `._:-@/+=~`: what UUIDs, ULIDs, trace ids and AWS/Heroku ids use. */
const ACCEPTED = /^[A-Za-z0-9._:@/+=~-]{1,128}$/;

export function isAcceptableRequestId(value: string): boolean {
  return ACCEPTED.test(value);
}

export function requestIdOf(request: IncomingMessage): string {
  const sent = request.headers[REQUEST_ID_HEADER];
  return typeof sent === "string" && isAcceptableRequestId(sent) ? sent : newId();
}
