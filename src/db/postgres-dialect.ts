/**
 * Kysely's PostgreSQL dialect with one change: the migration lock is transaction-scoped.
 *
 * Kysely's own (kysely 0.29, dialect/postgres/postgres-adapter.js) takes a session-level
 * `pg_advisory_lock` in a statement of its own, runs the migrations in a transaction, then
 * `pg_advisory_unlock`s in a third. Behind a pooler in transaction mode those three may run on
 * three server connections: the unlock then finds no lock to release, and the lock stays held
 * by a server connection the pooler keeps, so the next migration waits on it (up to Kysely's
 * hour of lock_timeout). A session lock is also kept through the ROLLBACK of a failed migration.
 * Here the lock is `pg_advisory_xact_lock`, released by the migrations' own COMMIT or ROLLBACK,
 * and migrate.ts runs the whole migration, lock included, in one transaction. The key is
 * Kysely's, so a process still on Kysely's lock and one on this one exclude each other.
 */
import { type Kysely, PostgresAdapter, PostgresDialect, sql } from "kysely";

/** Kysely's migration lock key (the same file's LOCK_ID). */
export const MIGRATION_LOCK_KEY = 3853314791062309107n;

class VelvetPostgresAdapter extends PostgresAdapter {
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`select pg_advisory_xact_lock(${sql.lit(MIGRATION_LOCK_KEY)})`.execute(db);
  }

  override async releaseMigrationLock(): Promise<void> {
    // The transaction's end releases it.
  }
}

export class VelvetPostgresDialect extends PostgresDialect {
  override createAdapter(): PostgresAdapter {
    return new VelvetPostgresAdapter();
  }
}
