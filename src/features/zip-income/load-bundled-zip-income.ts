/**
 * Velvet ships the Census ZIP-code income table (`census/`, see docs/scoring.md for its source) and
 * loads it into `zip_incomes` whenever that table is empty, at every start of every command, so
 * the affluent-area signal counts on a fresh install with no paid provider key.
 *
 * A table that holds rows is left alone: the bundled vintage never overwrites a newer file an
 * operator loaded with `velvet data import-zip-income`. The probe is one indexed read, so a
 * start with data pays nothing more. Processes that start together on one empty database load
 * it once: on PostgreSQL a transaction-scoped advisory lock orders them, on SQLite the write lock
 * (BEGIN IMMEDIATE) does, and each checks again for rows under its lock.
 */
import { fileURLToPath } from "node:url";
import { type Kysely, sql } from "kysely";
import type { Db } from "../../db/connect.js";
import type { Database } from "../../db/schema.js";
import { insertZipIncomes, readZipIncomeFile } from "./import-zip-income.js";

export const BUNDLED_ZIP_INCOME_FILE = fileURLToPath(
  new URL("../../../census/acs-zcta-median-household-income.csv", import.meta.url),
);

/** An arbitrary constant naming "loading zip_incomes" among PostgreSQL advisory locks. */
const LOAD_LOCK_KEY = 7_262_019_001;

/** Loads the bundled table if `zip_incomes` is empty; returns how many rows it loaded (0 if none). */
export async function loadBundledZipIncome(
  db: Db,
  file: string = BUNDLED_ZIP_INCOME_FILE,
): Promise<number> {
  if (await hasRows(db.kysely)) return 0;
  const { rows } = await readZipIncomeFile(file);
  return db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === "postgres")
      await sql`select pg_advisory_xact_lock(${LOAD_LOCK_KEY})`.execute(trx);
    if (await hasRows(trx)) return 0;
    await insertZipIncomes(trx, rows);
    return rows.length;
  });
}

async function hasRows(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom("zip_incomes").select("zcta").limit(1).executeTakeFirst();
  return row !== undefined;
}
