/**
 * One batch of a history import's orders (import-orders.ts reads the file and hands them over):
 * applied through the order-intake use case, a customer's orders one after the other and
 * different customers' together, or counted against the database on a dry run. Both leave out
 * the orders of forgotten customers, and an applied batch first checks that the account is
 * still open.
 */

import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { AppError } from "../../lib/app-error.js";
import { normalizeEmail } from "../orders/email-address.js";
import { findForgottenOrders, forgottenOrderKeys } from "../orders/forgotten-orders.js";
import { submitOrder } from "../orders/submit-order.js";
import { countStored } from "./count-stored.js";
import type { ImportOptions, RowError } from "./import-options.js";
import { type FileItem, ImportError } from "./read-order-file.js";
import type { SeenKeys } from "./seen-keys.js";

export type OrderItem = Extract<FileItem, { kind: "order" }>;

type Tally = {
  customers: number;
  newCustomers: number;
  skipped: number;
  forgotten: number;
  errors: number;
};

export interface BatchContext {
  deps: Pick<Deps, "db" | "clock" | "config" | "jobs">;
  store: StoreRef;
  options: ImportOptions;
  seen: SeenKeys;
  tally: Tally;
  rowError: (error: RowError) => void;
  counts: { orders: number };
  returning: Set<string>;
}

/** The batch without the orders of forgotten customers, which are counted. */
async function withoutForgotten(context: BatchContext, batch: OrderItem[]): Promise<OrderItem[]> {
  const { deps, store, tally } = context;
  const forgotten = await findForgottenOrders(
    deps.db.kysely,
    forgottenOrderKeys(deps.config.storeSync.tokenKey),
    store.storeId,
    batch.flatMap((item) => (item.submission.order?.id ? [item.submission.order.id] : [])),
  );
  if (forgotten.size === 0) return batch;
  const kept = batch.filter((item) => !forgotten.has(item.submission.order?.id ?? ""));
  tally.forgotten += batch.length - kept.length;
  return kept;
}

export async function applyBatch(context: BatchContext, all: OrderItem[]): Promise<void> {
  const { deps, store, options, seen, tally, rowError, counts, returning } = context;
  await refuseClosedAccount(deps, store.accountId);
  const batch = await withoutForgotten(context, all);
  // A customer's orders go in file order, one after the other (the customer is stored as their
  // first order gives it, as the API does); different customers' orders go together.
  const previous = new Map<string, Promise<unknown>>();
  const settled = await Promise.allSettled(
    batch.map((item) => {
      const email = normalizeEmail(item.submission.email);
      const submit = () =>
        submitOrder(deps, store, item.submission, {
          orderedAt: item.orderedAt,
          alerts: options.alerts,
          priority: "backfill",
          sample: options.sampleStore !== undefined,
        });
      const before = previous.get(email);
      const mine = before === undefined ? submit() : before.then(submit, submit);
      previous.set(email, mine);
      return mine;
    }),
  );
  settled.forEach((outcome, i) => {
    const item = batch[i] as OrderItem;
    if (outcome.status === "rejected") {
      // A conflicting order id is this order's problem; anything else (the database is gone)
      // stops the import, and a re-run picks up from what was committed.
      if (!(outcome.reason instanceof AppError)) throw outcome.reason;
      rowError({ line: item.line, reason: outcome.reason.message });
      return;
    }
    counts.orders += 1;
    if (seen.add("customer", normalizeEmail(item.submission.email))) tally.customers += 1;
    if (outcome.value.newCustomer) tally.newCustomers += 1;
    if (!outcome.value.newOrder) tally.skipped += 1;
    else if (outcome.value.enrichmentStatus === "existing") returning.add(outcome.value.customerId);
  });
}

/** The account was closed while the import ran: nothing more is taken. */
async function refuseClosedAccount(deps: Pick<Deps, "db">, accountId: string): Promise<void> {
  const row = await deps.db.kysely
    .selectFrom("accounts")
    .select("closed_at")
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (row === undefined || row.closed_at !== null) {
    throw new ImportError(`Account ${accountId} was closed: the import stopped`);
  }
}

export async function countBatch(context: BatchContext, all: OrderItem[]): Promise<void> {
  const { deps, store, seen, tally, counts } = context;
  const batch = await withoutForgotten(context, all);
  const firstSeen = batch.flatMap((item) => {
    const email = normalizeEmail(item.submission.email);
    return seen.add("customer", email) ? [email] : [];
  });
  const orderIds = batch.flatMap((item) =>
    item.submission.order?.id ? [item.submission.order.id] : [],
  );
  const stored = await countStored(deps.db.kysely, store.storeId, firstSeen, orderIds);
  counts.orders += batch.length;
  tally.customers += firstSeen.length;
  tally.newCustomers += firstSeen.length - stored.customers;
  tally.skipped += stored.orders;
}
