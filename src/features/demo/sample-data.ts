/**
 * Sample data: a generated store history (sample-history.ts) imported through the file import
 * (order-import), so it goes through order intake, enrichment and scoring like a real history.
 * It is marked as sample (customers.sample), charged nothing, raises no VIP alert (imported
 * with alerts off), and is removed in one go, every sample customer erased as `velvet customer
 * forget` erases one but for two steps erase-customer-rows.ts skips for sample people: no one is
 * told, and no order id is remembered (so the same sample can be added again). Both are in the
 * account's audit trail.
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
  const account = await getAccount(deps.db.kysely, input.accountId);
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
      sample: true,
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
  const row = await deps.db.kysely
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("stores.account_id", "=", accountId)
    .where("customers.sample", "=", 1)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Erases every sample customer of the account (50 per transaction); real ones are untouched. */
export async function removeSampleData(
  deps: Pick<Deps, "db" | "clock" | "config"> & PrivacyDeps,
  input: { accountId: string; actor: AuditActor },
): Promise<{ customers: number; orders: number }> {
  const db = deps.db.kysely;
  const removed = { customers: 0, orders: 0 };
  for (;;) {
    const ids = await db
      .selectFrom("customers")
      .innerJoin("stores", "stores.id", "customers.store_id")
      .select("customers.id")
      .where("stores.account_id", "=", input.accountId)
      .where("customers.sample", "=", 1)
      .limit(50)
      .execute();
    if (ids.length === 0) break;
    await db.transaction().execute(async (trx) => {
      for (const { id } of ids) {
        const erased = await eraseCustomerRows(trx, deps, id, deps.clock.now());
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
