/**
 * Forward-only, numbered migrations. A failed migration throws: `velvet migrate` and
 * `velvet serve` then stop with a non-zero exit instead of running on a half-made schema.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";
import {
  type Migration,
  type MigrationProvider,
  type MigrationResultSet,
  Migrator,
} from "kysely/migration";
import * as m0001 from "./migrations/0001_initial.js";
import * as m0002 from "./migrations/0002_enrichment.js";
import * as m0003 from "./migrations/0003_alerts.js";
import * as m0004 from "./migrations/0004_sessions.js";
import * as m0005 from "./migrations/0005_due_jobs_index.js";
import * as m0006 from "./migrations/0006_order_history_indexes.js";
import * as m0008 from "./migrations/0008_security.js";
import * as m0009 from "./migrations/0009_privacy.js";
import * as m0010 from "./migrations/0010_operations.js";
import * as m0011 from "./migrations/0011_job_priority.js";
import * as m0012 from "./migrations/0012_store_connections.js";
import * as m0013 from "./migrations/0013_team.js";
import * as m0014 from "./migrations/0014_outage_resilience.js";
import * as m0015 from "./migrations/0015_real_stores.js";
import * as m0016 from "./migrations/0016_known_devices.js";
import * as m0017 from "./migrations/0017_destinations.js";
import * as m0018 from "./migrations/0018_sample_data.js";
import * as m0019 from "./migrations/0019_spend_control.js";
import * as m0020 from "./migrations/0020_verdicts.js";
import * as m0021 from "./migrations/0021_destination_disabling.js";
import * as m0022 from "./migrations/0022_sample_store.js";
import * as m0023 from "./migrations/0023_order_status.js";
import * as m0024 from "./migrations/0024_store_webhooks.js";
import * as m0025 from "./migrations/0025_rejudge.js";
import * as m0026 from "./migrations/0026_tiers.js";
import * as m0027 from "./migrations/0027_exchange_rates.js";
import * as m0028 from "./migrations/0028_shared_limits.js";
import * as m0029 from "./migrations/0029_fair_queues.js";
import * as m0030 from "./migrations/0030_channel_settings.js";
import * as m0031 from "./migrations/0031_spend_ledger_shards.js";
import * as m0032 from "./migrations/0032_account_settings.js";
import { MIGRATION_LOCK_KEY } from "./postgres-dialect.js";
import type { Database } from "./schema.js";

export const MIGRATIONS: Record<string, Migration> = {
  "0001_initial": m0001,
  "0002_enrichment": m0002,
  "0003_alerts": m0003,
  "0004_sessions": m0004,
  "0005_due_jobs_index": m0005,
  "0006_order_history_indexes": m0006,
  "0008_security": m0008,
  "0009_privacy": m0009,
  "0010_operations": m0010,
  "0011_job_priority": m0011,
  "0012_store_connections": m0012,
  "0013_team": m0013,
  "0014_outage_resilience": m0014,
  "0015_real_stores": m0015,
  "0016_known_devices": m0016,
  "0017_destinations": m0017,
  "0018_sample_data": m0018,
  "0019_spend_control": m0019,
  "0020_verdicts": m0020,
  "0021_destination_disabling": m0021,
  "0022_sample_store": m0022,
  "0023_order_status": m0023,
  "0024_store_webhooks": m0024,
  "0025_rejudge": m0025,
  "0026_tiers": m0026,
  "0027_exchange_rates": m0027,
  "0028_shared_limits": m0028,
  "0029_fair_queues": m0029,
  "0030_channel_settings": m0030,
  "0031_spend_ledger_shards": m0031,
  "0032_account_settings": m0032,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export class MigrationError extends Error {
  override name = "MigrationError";
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  const { error, results } =
    db.getExecutor().adapter instanceof PostgresAdapter
      ? await migratePostgres(db)
      : await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error !== undefined || failed !== undefined) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${cause}`, {
      cause: error,
    });
  }
  return { applied: (results ?? []).map((r) => r.migrationName) };
}

/**
 * PostgreSQL: the whole run in ONE transaction that first takes the migration lock
 * (transaction-scoped: postgres-dialect.ts), so nothing of it depends on the session, and a
 * process that starts beside another waits for its migrations, then finds them applied
 * (creating Kysely's own tables included). A failure rolls everything back.
 */
async function migratePostgres(db: Kysely<Database>): Promise<MigrationResultSet> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(trx);
      const result = await new Migrator({ db: trx, provider }).migrateToLatest();
      if (result.error !== undefined || result.results?.some((r) => r.status === "Error"))
        throw new RolledBack(result);
      return result;
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result;
    return { error };
  }
}

class RolledBack extends Error {
  constructor(readonly result: MigrationResultSet) {
    super("migration failed");
  }
}

/**
 * The migrations this build knows that the database has not applied (readiness probes: a
 * process must not take traffic on an older schema). Throws when there is no migration table.
 */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const names = new Set(applied.rows.map((r) => r.name));
  return Object.keys(MIGRATIONS).filter((name) => !names.has(name));
}
