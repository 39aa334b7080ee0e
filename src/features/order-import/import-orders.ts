/**
 * Backfill from a file: every order of a Shopify, WooCommerce or plain export goes through the
 * order-intake use case (`submitOrder`), so de-duplication, the one charge per new customer and
 * the enrichment are exactly the API's. What differs: each order keeps its own date, its
 * customer's enrichment runs at backfill priority (live orders' enrichments are claimed first)
 * and raises no VIP alert unless `alerts` is on.
 *
 * - Dry run (`apply: false`): reads the file and the database, writes nothing, and counts what
 *   an import would do: orders, distinct customers, new ones, charges and their amount.
 * - Idempotent and resumable: orders are de-duplicated by their id, customers by e-mail, so a
 *   second run (or the run after a crash or Ctrl-C) imports only what is missing.
 * - Forgotten people stay forgotten: an order that belonged to a customer erased with
 *   `velvet customer forget` (orders/forgotten-orders.ts) is skipped and counted as `forgotten`.
 * - Batches: the orders of a batch are submitted together; on SQLite the driver's group commit
 *   puts up to 100 of them in one transaction (each in its own savepoint), which is what makes
 *   thousands of orders a second possible; on PostgreSQL they share the connection pool. A bad order (a conflicting id) fails alone and is reported.
 * - A closed account takes nothing: it is refused before the file is read, and an import that
 *   is running when the account is closed stops before its next batch.
 */

import { statSync } from "node:fs";
import { basename } from "node:path";
import type { StoreRef } from "../../db/store-ref.js";
import type { Deps } from "../../deps.js";
import { multiply } from "../../lib/decimal.js";
import { getAccount } from "../accounts/get-account.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { estimateLookupCost, type LookupCostEstimate } from "../enrichment/estimate-lookup-cost.js";
import { enqueueRejudge } from "../enrichment/rejudge/enqueue-rejudge.js";
import { applyBatch, type BatchContext, countBatch, type OrderItem } from "./import-batches.js";
import type { ImportOptions, RowError } from "./import-options.js";
import { measureProgress } from "./import-progress.js";
import { ImportError, readOrderFile } from "./read-order-file.js";
import { openSeenKeys } from "./seen-keys.js";

export type { ImportOptions, RowError } from "./import-options.js";

export interface ImportSummary extends LookupCostEstimate {
  rows: number;
  orders: number;
  customers: number;
  newCustomers: number;
  charges: number;
  amountUsd: string;
  /** Orders already stored, or repeated in the file. */
  skipped: number;
  /** Orders of forgotten customers, not taken again. */
  forgotten: number;
  errors: number;
}

export async function importOrders(
  deps: Pick<Deps, "db" | "clock" | "config" | "jobs">,
  options: ImportOptions,
): Promise<ImportSummary> {
  const account = await getAccount(deps, options.accountId);
  if (account === null) throw new ImportError(`No account ${options.accountId}`);
  if (account.closedAt !== null) throw new ImportError(`Account ${options.accountId} is closed`);
  if (options.sampleStore !== undefined && options.sampleStore.accountId !== account.accountId)
    throw new ImportError(`The sample store is not account ${options.accountId}'s`);
  const store: StoreRef = options.sampleStore ?? {
    accountId: account.accountId,
    storeId: account.storeId,
  };
  const sample = options.sampleStore !== undefined;
  const totalBytes = fileSize(options.file);
  const batchSize = options.batchSize ?? 256;
  const everyMs = options.progressEveryMs ?? 250;
  const counts = { rows: 0, orders: 0, bytes: 0 };
  const tally = { customers: 0, newCustomers: 0, skipped: 0, forgotten: 0, errors: 0 };
  const seen = openSeenKeys();
  const startedAt = performance.now();
  let reportedAt = startedAt;
  const report = (force: boolean) => {
    const now = performance.now();
    if (!options.onProgress || (!force && now - reportedAt < everyMs)) return;
    reportedAt = now;
    options.onProgress(measureProgress(counts, totalBytes, now - startedAt));
  };
  const rowError = (error: RowError) => {
    tally.errors += 1;
    options.onRowError?.(error);
  };
  const run = options.apply ? applyBatch : countBatch;
  // Customers known before the import who got orders from it: re-judged once each, at the end.
  const returning = new Set<string>();
  const context: BatchContext = {
    deps,
    store,
    options,
    seen,
    tally,
    rowError,
    counts,
    returning,
  };
  try {
    let batch: OrderItem[] = [];
    for await (const item of readOrderFile(options.file, counts)) {
      counts.rows += item.rows;
      if (item.kind === "error") rowError({ line: item.line, reason: item.reason });
      else if (item.submission.order?.id && !seen.add("order", item.submission.order.id)) {
        tally.skipped += 1; // the same order twice in the file
      } else batch.push(item);
      if (batch.length >= batchSize) {
        await run(context, batch);
        batch = [];
        report(false);
        if (options.signal?.aborted) break;
      }
    }
    if (batch.length > 0 && !options.signal?.aborted) {
      await run(context, batch);
    }
  } finally {
    seen.close();
  }
  report(true);
  if (options.apply) await rejudgeReturning(deps, returning, options.alerts);
  const price = deps.config.enrichmentPriceUsd;
  const lookups = await estimateLookupCost(
    deps.db.kysely,
    deps.config.enrichment,
    options.accountId,
    tally.newCustomers,
    deps.clock.now(),
  );
  const summary = {
    rows: counts.rows,
    orders: counts.orders,
    customers: tally.customers,
    newCustomers: tally.newCustomers,
    charges: sample ? 0 : tally.newCustomers,
    amountUsd: multiply(price, sample ? 0 : tally.newCustomers),
    skipped: tally.skipped,
    forgotten: tally.forgotten,
    errors: tally.errors,
    ...lookups,
  };
  if (options.apply && options.actor !== undefined) {
    const { rows, orders, newCustomers, charges, amountUsd, skipped, errors } = summary;
    await recordAuditEvent(
      deps.db.kysely,
      {
        accountId: account.accountId,
        actor: options.actor,
        action: "orders.imported",
        details: {
          file: basename(options.file),
          rows,
          orders,
          newCustomers,
          charges,
          amountUsd,
          skipped,
          errors,
          completed: !options.signal?.aborted,
        },
      },
      deps.clock.now(),
    );
  }
  return summary;
}

/**
 * One keyed re-judge per customer the store knew before who got orders from the file (a new
 * customer's enrichment reads their whole history anyway; one whose enrichment is still queued
 * is skipped by the re-judge for the same reason). Historical unless the import raises alerts.
 */
async function rejudgeReturning(
  deps: Pick<Deps, "db" | "clock">,
  returning: ReadonlySet<string>,
  alerts: boolean,
): Promise<void> {
  const ids = [...returning];
  for (let i = 0; i < ids.length; i += 500) {
    await deps.db.kysely.transaction().execute(async (trx) => {
      const now = deps.clock.now();
      for (const id of ids.slice(i, i + 500)) {
        await enqueueRejudge(trx, id, now, { historical: !alerts });
      }
    });
  }
}

function fileSize(path: string): number {
  let stat: ReturnType<typeof statSync>;
  try {
    stat = statSync(path);
  } catch {
    throw new ImportError(`No such file: ${path}`);
  }
  if (stat.isDirectory()) throw new ImportError(`Not a file but a directory: ${path}`);
  return stat.size;
}
