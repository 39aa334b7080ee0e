/**
 * Glossary of destinations:
 * - destination: where an account's customer events go outside Velvet (a signed webhook, a CRM
 *   profile), one `destinations` row with its kind, target, events and sealed secret.
 * - event: `customer.enriched` (every finished enrichment, and every change of the VIP decision
 *   on later orders), `customer.vip` (when found VIP: at enrichment, or by a re-judge),
 *   `customer.not_vip` (a VIP a re-judge found under the line; delivered wherever `customer.vip`
 *   is), `customer.forgotten` (after an erasure, so the receiver can erase too).
 * - delivery: one event to one destination, a `destination_deliveries` row written with its
 *   keyed job in the event's transaction (the outbox): exactly one per event and destination.
 * - attempt: one try at a delivery, logged in `destination_attempts`.
 * - historical: an event about a customer from an import or a store backfill; machines receive
 *   it (marked), people are not alerted.
 * - declaration: what a kind says about itself (label, input fields, events, its add form),
 *   from which the dashboard's form and route and `velvet destination add <kind>` are derived
 *   (destination-declaration.ts).
 * - driver: a kind's declaration and what it does (check what is added, send one delivery); the
 *   registry maps each kind to its driver, built from the kinds in destination-kinds.ts.
 * - disabled: a destination whose receiver answered 410 Gone; its events are recorded as failed
 *   deliveries and not sent until the merchant enables it again (disable-destination.ts).
 */
import type { DestinationEvent, DestinationKind } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import type { OutboundHttp } from "../../lib/outbound/outbound-http.js";
import type { DeliveryResult } from "../alerts/delivery-result.js";
import type { DestinationDeclaration } from "./destination-declaration.js";

/** A destination as its driver sees it, its secret opened. */
export interface OpenDestination {
  id: string;
  accountId: string;
  kind: DestinationKind;
  target: string;
  settings: Record<string, unknown>;
  /** The opened secret (signing secret, API key), or null. */
  secret: string | null;
}

/** One delivery as its driver sends it. */
export interface DeliveryToSend {
  id: string;
  event: DestinationEvent;
  /** The body stored with the delivery: `{type, timestamp, data}`. */
  body: string;
  /** A "send a test" from the CLI or dashboard, not a customer event. */
  test?: boolean;
}

export interface DriverDeps extends Pick<Deps, "config" | "clock" | "log" | "db"> {
  http: OutboundHttp;
}

/** What adding a destination of this kind stores, once the driver has checked the input. */
export interface PreparedDestination {
  target: string;
  settings: Record<string, unknown>;
  secret: string | null;
  events: DestinationEvent[];
  /** Shown once to whoever added it (a webhook's signing secret), never again. */
  revealOnce?: Record<string, string>;
}

export interface DestinationDriver extends DestinationDeclaration {
  /**
   * Checks what an admin typed (throws AppError `bad_request` with why), asking the outside
   * when it must (a token's scopes), and prepares the row.
   */
  prepare(
    deps: DriverDeps,
    accountId: string,
    input: Record<string, string>,
    events: DestinationEvent[] | null,
  ): Promise<PreparedDestination>;
  /**
   * Whether this kind takes this event's data at all (Shopify: only a customer with a Shopify
   * id); without it every event the destination subscribed to is delivered.
   */
  accepts?(event: DestinationEvent, data: Record<string, unknown>): boolean;
  /**
   * True when telling this kind to forget someone it was never sent would do harm (Klaviyo
   * would delete a profile the merchant made without Velvet): `customer.forgotten` then goes
   * only where an earlier event about the person went. A webhook, the merchant's own system,
   * hears of every erasure.
   */
  forgetsOnlyWhatItWasSent?: boolean;
  /** Sends one delivery; every outcome is a value (DeliveryResult), never an exception. */
  send(
    deps: DriverDeps,
    destination: OpenDestination,
    delivery: DeliveryToSend,
    signal: AbortSignal,
  ): Promise<DeliveryResult>;
}

export type DestinationRegistry = ReadonlyMap<DestinationKind, DestinationDriver>;

export function destinationRegistry(drivers: DestinationDriver[]): DestinationRegistry {
  return new Map(drivers.map((d) => [d.kind, d]));
}

/** What the destinations feature needs beyond `Deps`. */
export interface DestinationsDeps {
  destinations: DestinationRegistry;
  http: OutboundHttp;
}
