/**
 * Stores a rate day in `exchange_rates`, replacing the day held, in one transaction: readers see
 * the old day or the new one, never a mix. A day older than the one held is not stored (a
 * refresh that reaches a stale mirror, or an old shipped file after a refresh, never goes back
 * in time); the same day again rewrites the same rows, so repeating a refresh changes nothing.
 *
 * Writers that run together (the daily job on two workers, a start loading the shipped file)
 * are ordered as zip-income's loader orders them: a transaction-scoped advisory lock on
 * PostgreSQL, the write lock (BEGIN IMMEDIATE) on SQLite, and the held day is read under it.
 */
import { type Kysely, sql } from "kysely";
import type { Db } from "../../db/connect.js";
import type { Database } from "../../db/schema.js";
import type { RateDay } from "./rate-day.js";

/** An arbitrary constant naming "writing exchange_rates" among PostgreSQL advisory locks. */
const STORE_LOCK_KEY = 7_262_019_027;

export type StoreOutcome =
  | { kind: "stored"; date: string; currencies: number; replaced: string | null }
  | { kind: "kept"; heldDate: string };

export async function storeRateDay(db: Db, day: RateDay, now: number): Promise<StoreOutcome> {
  return db.kysely.transaction().execute(async (trx) => {
    if (db.dialect === "postgres")
      await sql`select pg_advisory_xact_lock(${STORE_LOCK_KEY})`.execute(trx);
    const held = await heldRateDate(trx);
    if (held !== null && held > day.date) return { kind: "kept", heldDate: held };
    await trx.deleteFrom("exchange_rates").execute();
    await trx
      .insertInto("exchange_rates")
      .values(
        [...day.rates].map(([currency, perEur]) => ({
          currency,
          per_eur: perEur,
          rate_date: day.date,
          source: day.source,
          stored_at: now,
        })),
      )
      .execute();
    return { kind: "stored", date: day.date, currencies: day.rates.size, replaced: held };
  });
}

/** The day of the rates held, or null when none are. */
export async function heldRateDate(db: Kysely<Database>): Promise<string | null> {
  const row = await db
    .selectFrom("exchange_rates")
    .select((eb) => eb.fn.max("rate_date").as("date"))
    .executeTakeFirst();
  return row?.date ?? null;
}
