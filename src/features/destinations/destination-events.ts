/** The events a destination can receive, and reading a list of them from people. */
import type { DestinationEvent } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";

export const DESTINATION_EVENTS: readonly DestinationEvent[] = [
  "customer.enriched",
  "customer.vip",
  "customer.forgotten",
];

/** "customer.vip, customer.forgotten" → the events, each known and allowed; null when empty. */
export function parseEvents(
  text: string | undefined,
  allowed: readonly DestinationEvent[],
): DestinationEvent[] | null {
  const names = (text ?? "")
    .split(",")
    .map((e) => e.trim())
    .filter((e) => e !== "");
  if (names.length === 0) return null;
  const unknown = names.filter((n) => !allowed.includes(n as DestinationEvent));
  if (unknown.length > 0) {
    throw new AppError(
      "bad_request",
      `Unknown event ${unknown.join(", ")}: choose from ${allowed.join(", ")}`,
    );
  }
  return [...new Set(names as DestinationEvent[])];
}

export function storedEvents(text: string): DestinationEvent[] {
  return text
    .split(",")
    .filter((e): e is DestinationEvent => DESTINATION_EVENTS.includes(e as DestinationEvent));
}
