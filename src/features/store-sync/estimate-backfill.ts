/**
 * A connection's dry run: what connecting a store would read and cost, writing nothing (no
 * connection, no credentials or token saved, no job, no audit event).
 *
 * The credentials are checked exactly as a connection checks them (connect-store.ts: the same
 * calls, the same refusals, the 60-day cut without read_all_orders). Then the platform counts
 * the orders the backfill would read — those updated in the window, every status, as a pass
 * reads them (Shopify's `ordersCount`, WooCommerce's `X-WP-Total`):
 * - up to READ_LIMIT orders, they are read as the sync would read them: test and unpaid orders,
 *   and those cancelled, refunded or voided (no purchase, no customer made), are left out
 *   (counted by reason), and the new customers are the distinct e-mails not already
 *   stored for the store (nor only on orders of forgotten people): an exact figure;
 * - above it, each order counts as a possible new customer, test and unpaid ones included: an
 *   upper bound;
 * - when the platform stopped counting (Shopify's AT_LEAST above 10,000), the figures are for
 *   the orders counted, and the backfill can cost more.
 * Velvet's charge and the providers' cost are priced as the file import's dry run prices them.
 */
import type { StoreRef } from "../../db/store-ref.js";
import { multiply } from "../../lib/decimal.js";
import { estimateLookupCost, type LookupCostEstimate } from "../enrichment/estimate-lookup-cost.js";
import { countStored } from "../order-import/count-stored.js";
import { normalizeEmail } from "../orders/email-address.js";
import { findForgottenOrders, forgottenOrderKeys } from "../orders/forgotten-orders.js";
import {
  type ConnectStoreInput,
  checkAndVerify,
  findConnection,
  withPlatformErrors,
} from "./connect-store.js";
import type { Credentials } from "./credentials.js";
import { notPurchasedReason } from "./order-status.js";
import type { PlatformHttp } from "./platform-http.js";
import type { OrderCount, PlatformClient, SyncCursor } from "./store-platform.js";
import type { StoreSyncDeps } from "./store-sync-deps.js";

/** Orders read one by one for an exact figure; above this the figure is a bound. */
export const READ_LIMIT = 500;
const READ_TIMEOUT_MS = 120_000;

export interface BackfillEstimate extends LookupCostEstimate {
  platform: Credentials["platform"];
  shop: string;
  /** true: the shop is connected already; connecting again only replaces its credentials. */
  reconnect: boolean;
  /** The days of history the first sync would read (null on a reconnection). */
  backfillDays: number | null;
  backfillCut: { asked: number; reason: string } | null;
  /** ISO 8601: the backfill reads the orders updated since then. */
  since: string | null;
  /** Orders in the window, as the platform counts them (every status). */
  orders: OrderCount;
  /**
   * Orders the sync would not take, by reason (test orders, unpaid ones, forgotten customers…);
   * null when the orders were counted, not read: they are then included in the figures.
   */
  skipReasons: Record<string, number> | null;
  /** Orders already stored for the store (a file import, the API): no new charge. */
  alreadyStored: number | null;
  newCustomers: number;
  /** exact: counted; at_most: an upper bound; unknown: the platform stopped counting. */
  newCustomersPrecision: "exact" | "at_most" | "unknown";
  charges: number;
  amountUsd: string;
}

export async function estimateBackfill(
  deps: StoreSyncDeps,
  http: PlatformHttp,
  input: Omit<ConnectStoreInput, "actor">,
): Promise<BackfillEstimate> {
  const { account, platform, shop, asked, checked } = await checkAndVerify(deps, http, input);
  const store: StoreRef = { accountId: account.accountId, storeId: account.storeId };
  const reconnect = (await findConnection(deps, store.storeId, platform, shop)) !== undefined;
  const base = { platform, shop, reconnect };
  if (reconnect) {
    return {
      ...base,
      backfillDays: null,
      backfillCut: null,
      since: null,
      orders: { count: 0, precision: "exact" },
      skipReasons: null,
      alreadyStored: null,
      ...(await priced(deps, store, 0, "exact")),
    };
  }
  const { backfillDays, cursor, client } = checked;
  const tally = await withPlatformErrors(deps, platform, "count the orders", async () => {
    const signal = AbortSignal.timeout(READ_TIMEOUT_MS);
    const counted = await client.countOrders(cursor.since, signal);
    const read =
      counted.precision === "exact" && counted.count <= READ_LIMIT
        ? await readWindow(client, cursor, signal)
        : null;
    return { counted, read };
  });
  const window = {
    backfillDays,
    backfillCut: backfillDays === asked ? null : checked.cut,
    since: cursor.since,
    orders: tally.counted,
  };
  if (tally.read === null) {
    const precision = tally.counted.precision === "exact" ? "at_most" : "unknown";
    return {
      ...base,
      ...window,
      skipReasons: null,
      alreadyStored: null,
      ...(await priced(deps, store, tally.counted.count, precision)),
    };
  }
  const known = await newCustomersOf(deps, store, tally.read);
  return {
    ...base,
    ...window,
    skipReasons: known.skipReasons,
    alreadyStored: known.alreadyStored,
    ...(await priced(deps, store, known.newCustomers, "exact")),
  };
}

interface ReadWindow {
  /** The orders the sync would take: order id → normalized e-mail. */
  taken: Map<string, string>;
  skipReasons: Record<string, number>;
}

/** Every order of the window, page by page as a pass reads them; a repeated order counts once. */
async function readWindow(
  client: PlatformClient,
  from: SyncCursor,
  signal: AbortSignal,
): Promise<ReadWindow | null> {
  const seen = new Set<string>();
  const taken = new Map<string, string>();
  const skipReasons: Record<string, number> = {};
  let cursor = from;
  // A pass of READ_LIMIT orders is about ten pages; one that goes on (orders keep changing
  // while it reads) falls back to the bound.
  for (let pages = 0; pages < READ_LIMIT / 10; pages++) {
    const page = await client.fetchPage(cursor, signal);
    for (const order of page.orders) {
      if (seen.has(order.externalId)) continue;
      seen.add(order.externalId);
      // An order that is no purchase makes no customer: the sync skips it (write-pulled-orders.ts).
      const reason =
        order.kind === "skip"
          ? order.reason
          : order.counts
            ? null
            : notPurchasedReason(order.status);
      if (reason !== null) skipReasons[reason] = (skipReasons[reason] ?? 0) + 1;
      else if (order.kind === "order")
        taken.set(order.externalId, normalizeEmail(order.submission.email));
    }
    if (page.last) return { taken, skipReasons };
    cursor = page.next;
  }
  return null;
}

/** The distinct customers of the orders taken that the store does not hold yet. */
async function newCustomersOf(
  deps: StoreSyncDeps,
  store: StoreRef,
  read: ReadWindow,
): Promise<{ newCustomers: number; alreadyStored: number; skipReasons: Record<string, number> }> {
  const skipReasons = { ...read.skipReasons };
  const forgotten = await findForgottenOrders(
    deps.db.kysely,
    forgottenOrderKeys(deps.config.storeSync.tokenKey),
    store.storeId,
    [...read.taken.keys()],
  );
  if (forgotten.size > 0) skipReasons["forgotten customer"] = forgotten.size;
  const emails = new Set<string>();
  const orderIds: string[] = [];
  for (const [orderId, email] of read.taken) {
    if (forgotten.has(orderId)) continue;
    emails.add(email);
    orderIds.push(orderId);
  }
  const stored = await countStored(deps.db.kysely, store.storeId, [...emails], orderIds);
  return {
    newCustomers: emails.size - stored.customers,
    alreadyStored: stored.orders,
    skipReasons,
  };
}

async function priced(
  deps: StoreSyncDeps,
  store: StoreRef,
  newCustomers: number,
  precision: BackfillEstimate["newCustomersPrecision"],
) {
  const lookups = await estimateLookupCost(
    deps.db.kysely,
    deps.config.enrichment,
    store.accountId,
    newCustomers,
    deps.clock.now(),
  );
  return {
    newCustomers,
    newCustomersPrecision: precision,
    charges: newCustomers,
    amountUsd: multiply(deps.config.enrichmentPriceUsd, newCustomers),
    ...lookups,
  };
}
