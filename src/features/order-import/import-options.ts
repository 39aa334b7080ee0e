/**
 * What an import of a history file is asked to do (importOrders in import-orders.ts): the
 * account and file, dry run or apply, alerts, the sample store, who imports, the batch size and
 * progress interval, the signal that stops it, and the callbacks it reports progress and rejected
 * rows through.
 */

import type { StoreRef } from "../../db/store-ref.js";
import type { AuditActor } from "../audit/audit-actor.js";
import type { ImportProgress } from "./import-progress.js";

export interface RowError {
  line: number;
  reason: string;
}

export interface ImportOptions {
  accountId: string;
  file: string;
  /** false: a dry run. */
  apply: boolean;
  /** Raise VIP alerts for the imported customers. */
  alerts: boolean;
  /**
   * Generated sample data (velvet demo): imported into this store, the account's sample store
   * (features/demo/sample-store.ts), its new customers marked as sample and not charged.
   */
  sampleStore?: StoreRef;
  /** Who imports: a real import (not a dry run) is recorded in the account's audit trail. */
  actor?: AuditActor;
  onProgress?: (progress: ImportProgress) => void;
  onRowError?: (error: RowError) => void;
  /** Stops after the batch in flight (Ctrl-C); a re-run finishes the rest. */
  signal?: AbortSignal;
  batchSize?: number;
  progressEveryMs?: number;
}
