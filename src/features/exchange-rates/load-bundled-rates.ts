/**
 * Velvet ships one day of the ECB's euro reference rates (`ecb/`, docs/scoring.md says which day
 * and where the copy came from) and stores it at every start of every command when the database
 * holds no rates, or older ones than the file: a fresh install converts other currencies at once,
 * with no outbound call. Rates a refresh brought (`velvet data refresh-rates`, the daily job) are
 * newer and are left alone. With rates held, a start costs one indexed read.
 */
import { fileURLToPath } from "node:url";
import type { Db } from "../../db/connect.js";
import { readRatesCsv } from "./read-rates-csv.js";
import { heldRateDate, storeRateDay } from "./store-rate-day.js";

export const BUNDLED_RATES_FILE = fileURLToPath(
  new URL("../../../ecb/euro-reference-rates.csv", import.meta.url),
);

/** Stores the shipped day when nothing as recent is held; returns its date, or null if not. */
export async function loadBundledRates(
  db: Db,
  now: number,
  file: string = BUNDLED_RATES_FILE,
): Promise<string | null> {
  const day = await readRatesCsv(file);
  const held = await heldRateDate(db.kysely);
  if (held !== null && held >= day.date) return null;
  const outcome = await storeRateDay(db, day, now);
  return outcome.kind === "stored" && outcome.replaced !== day.date ? day.date : null;
}
