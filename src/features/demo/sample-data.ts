/**
 * Sample data: a generated store history (sample-history.ts) imported through the file import
 * (order-import) into the account's sample store (sample-store.ts), so it goes through order
 * intake, enrichment and scoring like a real history without touching the real store's
 * customers or order history. It is marked as sample (customers.sample), charged nothing,
 * raises no VIP alert (imported with alerts off), and is removed in one go: every customer of
 * the sample store (and only those) erased as `velvet customer forget` erases one but for two
 * steps erase-customer-rows.ts skips for sample people: no one is told, and no order id is
 * remembered (so the same sample can be added again). Both are in the account's audit trail.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Deps } from "../../deps.js";
import { AppError } from "../../lib/app-error.js";
import { getAccount } from "../accounts/get-account.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { importOrders } from "../order-import/import-orders.js";
import { eraseCustomerRows } from "../privacy/erase-customer-rows.js";
import type { PrivacyDeps } from "../privacy/privacy-registry.js";
import { sampleHistory, sampleHistoryCsv } from "./sample-history.js";
import { findSampleStore, sampleStoreOf } from "./sample-store.js";

export interface SampleAdded {
  customers: number;
  orders: number;
  /** Orders of the sample history already there (it was added before). */
  skipped: number;
}

export async function addSampleData(
  deps: Pick<Deps, "db" | "clock" | "config" | "jobs">,
  input: { accountId: string; actor: AuditActor },
): Promise<SampleAdded> {
  const account = await getAccount(deps, input.accountId);
  if (!account || account.closedAt !== null)
    throw new AppError("not_found", `No open account ${input.accountId}`);
  const dir = mkdtempSync(join(tmpdir(), "velvet-sample-"));
  try {
    const file = join(dir, "sample-orders.csv");
    writeFileSync(file, sampleHistoryCsv(sampleHistory(input.accountId, deps.clock.now())));
    const summary = await importOrders(deps, {
      accountId: input.accountId,
      file,
      apply: true,
      alerts: false,
      sampleStore: await sampleStoreOf(deps.db.kysely, input.accountId, deps.clock.now()),
    });
    const added = {
      customers: summary.newCustomers,
      orders: summary.orders - summary.skipped,
      skipped: summary.skipped,
    };
    await recordAuditEvent(
      deps.db.kysely,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "sample_data.added",
        details: { sampleCustomers: added.customers, orders: added.orders, skipped: added.skipped },
      },
      deps.clock.now(),
    );
    return added;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** How many sample customers the account has (the Overview offers to remove them). */
export async function countSampleCustomers(
  deps: Pick<Deps, "db">,
  accountId: string,
): Promise<number> {
  const store = await findSampleStore(deps.db.kysely, accountId);
  if (store === null) return 0;
  const row = await deps.db.kysely
    .selectFrom("customers")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("store_id", "=", store.storeId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** What removing the sample data would erase: the sample store's customers and orders. */
export async function previewSampleRemoval(
  deps: Pick<Deps, "db" | "config">,
  accountId: string,
): Promise<{ customers: number; orders: number }> {
  const account = await getAccount(deps, accountId);
  if (!account) throw new AppError("not_found", `No account ${accountId}`);
  const store = await findSampleStore(deps.db.kysely, accountId);
  if (store === null) return { customers: 0, orders: 0 };
  const orders = await deps.db.kysely
    .selectFrom("orders")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("store_id", "=", store.storeId)
    .executeTakeFirst();
  return {
    customers: await countSampleCustomers(deps, accountId),
    orders: Number(orders?.n ?? 0),
  };
}

/**
 * Erases every customer of the account's sample store (50 per transaction) and with them every
 * sample order; the real store, its customers and orders are untouched.
 */
export async function removeSampleData(
  deps: Pick<Deps, "db" | "clock" | "config"> & PrivacyDeps,
  input: { accountId: string; actor: AuditActor },
): Promise<{ customers: number; orders: number }> {
  const db = deps.db.kysely;
  const removed = { customers: 0, orders: 0 };
  const store = await findSampleStore(db, input.accountId);
  // No sample store: sample data was never added.
  while (store !== null) {
    const ids = await db
      .selectFrom("customers")
      .select("id")
      .where("store_id", "=", store.storeId)
      .limit(50)
      .execute();
    if (ids.length === 0) break;
    await db.transaction().execute(async (trx) => {
      for (const { id } of ids) {
        const erased = await eraseCustomerRows(trx, deps, id, "sample_removed", deps.clock.now());
        removed.customers += 1;
        removed.orders += erased.orders ?? 0;
      }
    });
  }
  if (removed.customers > 0)
    await recordAuditEvent(
      db,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "sample_data.removed",
        details: { sampleCustomers: removed.customers, orders: removed.orders },
      },
      deps.clock.now(),
    );
  return removed;
}
