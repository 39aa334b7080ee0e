/**
 * For a migration's test on existing data: a fresh database on `engine`, migrated with `before`
 * only (the migrations that came before the one under test), then seeded with rows as those
 * migrations shaped them, then migrated to the latest, as an upgrade would.
 */
import type { Kysely } from "kysely";
import { type Migration, Migrator } from "kysely/migration";
import { afterAll, beforeAll } from "vitest";
import { type Db, openDatabase } from "../../src/db/connect.js";
import { migrateToLatest } from "../../src/db/migrate.js";
import type { Database } from "../../src/db/schema.js";
import type { Engine, TestDatabase } from "./databases.js";

export async function upgradeSeeded<S>(
  engine: Engine,
  before: Record<string, Migration>,
  seed: (k: Kysely<Database>) => Promise<S>,
): Promise<{ database: TestDatabase; db: Db; rows: S }> {
  const database = await engine.create();
  const db = openDatabase(database.target);
  try {
    const migrator = new Migrator({
      db: db.kysely,
      provider: { getMigrations: async () => before },
    });
    const { error } = await migrator.migrateToLatest();
    if (error !== undefined) throw error;
    const rows = await seed(db.kysely);
    await migrateToLatest(db.kysely);
    return { database, db, rows };
  } catch (error) {
    // The test's afterAll never learns of this database: drop it here.
    await db.close();
    await database.drop();
    throw error;
  }
}

/**
 * The same for a describe block of such a test: the database is upgraded before its tests and
 * handed to `take` (the database and what `seed` returned), then closed and dropped after them.
 */
export function upgradeBeforeTests<S>(
  engine: Engine,
  before: Record<string, Migration>,
  seed: (k: Kysely<Database>) => Promise<S>,
  take: (upgraded: { db: Db; rows: S }) => void,
): void {
  let upgraded: { database: TestDatabase; db: Db; rows: S } | undefined;
  beforeAll(async () => {
    upgraded = await upgradeSeeded(engine, before, seed);
    take(upgraded);
  });
  afterAll(async () => {
    await upgraded?.db.close();
    await upgraded?.database.drop();
  });
}

/** The migrations that came before `name`: what a database upgraded to it already had. */
export function migrationsBefore(
  all: Record<string, Migration>,
  name: string,
): Record<string, Migration> {
  return Object.fromEntries(Object.entries(all).filter(([n]) => n < name));
}

/** An account and its store, as every migration since the first shapes them. */
export async function seedAccountAndStore(
  k: Kysely<Database>,
  ids: { accountId: string; storeId: string },
  now: number,
): Promise<void> {
  await k
    .insertInto("accounts")
    .values({
      id: ids.accountId,
      name: "A",
      created_at: now,
    })
    .execute();
  await k
    .insertInto("stores")
    .values({ id: ids.storeId, account_id: ids.accountId, name: "A", created_at: now })
    .execute();
}
