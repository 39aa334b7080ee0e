/**
 * Forward-only, numbered migrations. A failed migration throws: `velvet migrate` and
 * `velvet serve` then stop with a non-zero exit instead of running on a half-made schema.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator } from "kysely";
import * as m0001 from "./migrations/0001_initial.js";
import type { Database } from "./schema.js";

const MIGRATIONS: Record<string, Migration> = {
  "0001_initial": m0001,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export class MigrationError extends Error {
  override name = "MigrationError";
}

export interface MigrationReport {
  applied: string[];
}

export async function migrateToLatest(db: Kysely<Database>): Promise<MigrationReport> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error !== undefined || failed !== undefined) {
    const cause = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${cause}`, {
      cause: error,
    });
  }
  return { applied: (results ?? []).map((r) => r.migrationName) };
}
