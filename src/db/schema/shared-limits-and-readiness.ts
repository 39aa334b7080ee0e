/**
 * Rows the processes keep about themselves rather than about accounts: the budgets every process
 * draws on (features/shared-limits) and the one row GET /readyz writes to probe the database
 * (features/health).
 */
import type { Generated } from "kysely";

/** Budgets shared by every process: provider and webhook slots, per-key windows (migration 0028). */
export interface SharedLimitsTable {
  name: string;
  next_at: Generated<number>;
  granted_at: Generated<number>;
  window_ends_at: Generated<number>;
  used: Generated<number>;
  granted: Generated<number>;
  expires_at: number;
}

/** One row, upserted by GET /readyz's write probe. */
export interface ReadinessProbeTable {
  id: number;
  probed_at: number;
  ballast: string | null;
}
