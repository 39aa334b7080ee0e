/**
 * The destinations' handlers for the customer events (registered in main.ts): for each
 * destination of the account that takes the event, one `destination_deliveries` row with its
 * body, and its keyed job, in the event's transaction. The unique (destination, event key) with
 * ON CONFLICT DO NOTHING makes "one delivery per event and destination, ever" hold across
 * re-enrichment, retries and racing processes; a job is written only for a row this call made.
 * An enrichment's events are keyed by the customer (once per customer, ever); a re-judge's
 * change of the VIP decision (promoted, demoted) is a new event each time, keyed by the
 * customer and the moment of the change, and its data says what changed and why (`change`).
 * `customer.not_vip` (a VIP found under the line) goes wherever `customer.vip` goes.
 * A destination its receiver disabled (410 Gone) gets the row, failed with why, and no job:
 * the event is recorded, not sent, and can be sent again once the destination is enabled.
 */
import type { Selectable, Transaction } from "kysely";
import type { Database, DestinationEvent, DestinationsTable } from "../../db/schema.js";
import { JOB_PRIORITIES } from "../../jobs/claim-jobs.js";
import { enqueueJob, jobOf } from "../../jobs/enqueue-job.js";
import type { EventHandler } from "../../jobs/event-handlers.js";
import { newId } from "../../lib/ids.js";
import { topReasons } from "../alerts/top-reasons.js";
import { accountTiers } from "../customers/account-tiers.js";
import { tierOf } from "../customers/tiers.js";
import type { CustomerEnriched, VipFound, VipLost } from "../enrichment/enrichment-deps.js";
import type { CustomerForgotten } from "../privacy/privacy-registry.js";
import { DELIVER_TO_DESTINATION, DELIVERY_MAX_ATTEMPTS } from "./delivery-task.js";
import type { DestinationRegistry } from "./destination-driver.js";
import { notSentBecauseDisabled } from "./disable-destination.js";

export function deliveryJobKey(deliveryId: string): string {
  return `destination:${deliveryId}`;
}

/** The most reasons a customer event carries (the score's best-earning signals). */
const MAX_REASONS = 5;

interface EventToDeliver {
  accountId: string;
  event: DestinationEvent;
  customerId: string;
  /** Kept on the delivery (null: not linked to the person, as for customer.forgotten). */
  linkCustomer: boolean;
  /** customer.forgotten: the destinations that were sent something about the person. */
  sentTo?: ReadonlySet<string>;
  historical: boolean;
  /**
   * The event's data, asked for only once a destination takes the event: most accounts have
   * none, and building a customer event's data (the customer, the tier, the reasons) was a
   * measurable share of every enrichment's transaction.
   */
  data: () => Promise<Record<string, unknown>>;
  requestId: string | null;
  /** A re-judge's change: its moment makes the event key (one delivery per change). */
  changedAt?: number;
}

/** The subscription an event is delivered under. */
function subscribedAs(event: DestinationEvent): DestinationEvent {
  return event === "customer.not_vip" ? "customer.vip" : event;
}

export async function enqueueDeliveries(
  trx: Transaction<Database>,
  registry: DestinationRegistry,
  e: EventToDeliver,
  now: number,
): Promise<number> {
  const destinations = await accountDestinations(trx, e.accountId);
  let queued = 0;
  let data: Record<string, unknown> | null = null;
  for (const d of destinations) {
    if (!d.events.split(",").includes(subscribedAs(e.event))) continue;
    data ??= await e.data();
    // A kind may take only some customers (Shopify: those the store sync knows).
    const driver = registry.get(d.kind);
    if (driver?.accepts !== undefined && !driver.accepts(e.event, data)) continue;
    if (driver?.forgetsOnlyWhatItWasSent && e.sentTo !== undefined && !e.sentTo.has(d.id)) continue;
    const id = newId(now);
    const body = JSON.stringify({
      type: e.event,
      timestamp: new Date(now).toISOString(),
      data,
    });
    const disabled = d.disabled_at !== null;
    // Unsent, a customer.forgotten keeps no body, as one given up does: the e-mail goes with it.
    const kept = disabled && e.event === "customer.forgotten" ? null : body;
    const inserted = await trx
      .insertInto("destination_deliveries")
      .values({
        id,
        destination_id: d.id,
        account_id: e.accountId,
        customer_id: e.linkCustomer ? e.customerId : null,
        event: e.event,
        event_key:
          e.changedAt === undefined
            ? `${e.event}:${e.customerId}`
            : `${e.event}:${e.customerId}:${e.changedAt}`,
        historical: e.historical ? 1 : 0,
        body: kept,
        status: disabled ? "failed" : "pending",
        last_error:
          d.disabled_at === null ? null : notSentBecauseDisabled(d.disabled_at, d.disabled_reason),
        created_at: now,
        delivered_at: null,
      })
      .onConflict((oc) => oc.columns(["destination_id", "event_key"]).doNothing())
      .returning("id")
      .executeTakeFirst();
    if (inserted === undefined || disabled) continue;
    await enqueueJob(
      trx,
      jobOf(
        DELIVER_TO_DESTINATION,
        { deliveryId: id },
        {
          jobKey: deliveryJobKey(id),
          maxAttempts: DELIVERY_MAX_ATTEMPTS,
          requestId: e.requestId,
          // History reaches machines behind live traffic, as its enrichment ran.
          priority: JOB_PRIORITIES[e.historical ? "backfill" : "live"],
        },
      ),
      now,
    );
    queued++;
  }
  return queued;
}

type DestinationRow = Pick<
  Selectable<DestinationsTable>,
  "id" | "kind" | "events" | "disabled_at" | "disabled_reason"
>;

/**
 * The account's destinations, read once per transaction: an enrichment raises customer.enriched
 * and, for a VIP, customer.vip in the one transaction that stores its result, and both would
 * otherwise read the same rows (a round trip each on PostgreSQL). Nothing in such a transaction
 * adds or changes a destination.
 */
const readInTransaction = new WeakMap<
  Transaction<Database>,
  Map<string, Promise<DestinationRow[]>>
>();

function accountDestinations(
  trx: Transaction<Database>,
  accountId: string,
): Promise<DestinationRow[]> {
  let byAccount = readInTransaction.get(trx);
  if (byAccount === undefined) {
    byAccount = new Map();
    readInTransaction.set(trx, byAccount);
  }
  let rows = byAccount.get(accountId);
  if (rows === undefined) {
    rows = trx
      .selectFrom("destinations")
      .select(["id", "kind", "events", "disabled_at", "disabled_reason"])
      .where("account_id", "=", accountId)
      .execute();
    byAccount.set(accountId, rows);
  }
  return rows;
}

/** The customer as events show them; `shopifyId` only when the store sync knows them. */
async function customerOf(trx: Transaction<Database>, customerId: string) {
  const c = await trx
    .selectFrom("customers")
    .select(["email", "first_name", "last_name", "store_id", "shopify_customer_id"])
    .where("id", "=", customerId)
    .executeTakeFirstOrThrow();
  return {
    customer: {
      id: customerId,
      email: c.email,
      firstName: c.first_name,
      lastName: c.last_name,
      ...(c.shopify_customer_id === null ? {} : { shopifyId: c.shopify_customer_id }),
    },
    storeId: c.store_id,
  };
}

async function customerData(trx: Transaction<Database>, event: CustomerEnriched) {
  const { customer, storeId } = await customerOf(trx, event.customerId);
  return {
    customer,
    storeId,
    score: event.score,
    threshold: event.threshold,
    // The account's tier the score reaches when the event happens (null: none), kept in the
    // delivery's body so every retry sends the same.
    tier: tierOf(event.score, await accountTiers(trx, event.accountId)),
    vip: event.vip,
    reasons: topReasons(JSON.stringify(event.signals), MAX_REASONS),
    historical: event.historical,
    ...(event.change === undefined
      ? {}
      : {
          change: {
            kind: event.change.kind,
            at: new Date(event.change.at).toISOString(),
            reason: event.change.reason,
          },
        }),
  };
}

/** One customer event to the destinations that take it. */
async function deliverCustomerEvent(
  trx: Transaction<Database>,
  registry: DestinationRegistry,
  type: "customer.enriched" | "customer.vip" | "customer.not_vip",
  event: CustomerEnriched,
  now: number,
): Promise<void> {
  await enqueueDeliveries(
    trx,
    registry,
    {
      accountId: event.accountId,
      event: type,
      customerId: event.customerId,
      linkCustomer: true,
      historical: event.historical,
      data: () => customerData(trx, event),
      requestId: event.requestId,
      ...(event.change === undefined ? {} : { changedAt: event.change.at }),
    },
    now,
  );
}

/** The destinations' handlers for the customer events, over the registry of kinds (main.ts). */
export function destinationHandlers(registry: DestinationRegistry) {
  const onEnriched: EventHandler<CustomerEnriched> = (trx, event, now) =>
    deliverCustomerEvent(trx, registry, "customer.enriched", event, now);
  const onVip: EventHandler<VipFound> = (trx, event, now) =>
    deliverCustomerEvent(trx, registry, "customer.vip", event, now);
  /** A VIP a re-judge found under the line: Shopify's tag comes off, a webhook hears it. */
  const onVipLost: EventHandler<VipLost> = (trx, event, now) =>
    deliverCustomerEvent(trx, registry, "customer.not_vip", event, now);

  /**
   * After an erasure (raised while the customer row still exists): the receiver is told which
   * person to erase (id, e-mail, and the Shopify id when known) and why (`reason`, an
   * ErasureReason: only `erasure_request`, the person's own, asks for every copy to go). The
   * delivery is not linked to the person, and its body, the only place the e-mail stays, is
   * cleared once it is delivered or given up (deliver-to-destination.ts).
   */
  const onForgotten: EventHandler<CustomerForgotten> = async (trx, event, now) => {
    const { customer, storeId } = await customerOf(trx, event.customerId);
    const { firstName: _f, lastName: _l, ...identity } = customer;
    const sent = await trx
      .selectFrom("destination_deliveries")
      .select("destination_id")
      .where("customer_id", "=", event.customerId)
      .execute();
    await enqueueDeliveries(
      trx,
      registry,
      {
        accountId: event.accountId,
        event: "customer.forgotten",
        customerId: event.customerId,
        linkCustomer: false,
        sentTo: new Set(sent.map((s) => s.destination_id)),
        historical: false,
        data: async () => ({ customer: identity, storeId, reason: event.reason }),
        requestId: null,
      },
      now,
    );
  };

  return { onEnriched, onVip, onVipLost, onForgotten };
}
