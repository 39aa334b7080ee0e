/**
 * Affluent area: the Census median household income of the customer's ZIP code (ZCTA), from
 * the `zip_incomes` table that `velvet data import-zip-income` loads. Each way the lookup can
 * come up empty is its own outcome, so the score can say why the signal was skipped.
 */
import { type Kysely, sql } from "kysely";
import { preparedQuery } from "../../../db/prepared-query.js";
import type { Database } from "../../../db/schema.js";
import { type ZipLookupKey, zipLookupKey } from "./us-zip.js";

export type AreaIncome =
  | { kind: "found"; zcta: string; medianHouseholdIncome: number }
  | { kind: "unknown_zip"; zcta: string }
  | { kind: "not_loaded" }
  | Exclude<ZipLookupKey, { kind: "zcta" }>;

export async function areaIncome(
  db: Kysely<Database>,
  zipcode: string | null,
  country: string | null,
): Promise<AreaIncome> {
  const key = zipLookupKey(zipcode, country);
  if (key.kind !== "zcta") return key;
  const row = await findZcta.executeTakeFirst(db, { zcta: key.zcta });
  if (row)
    return {
      kind: "found",
      zcta: key.zcta,
      medianHouseholdIncome: Number(row.median_household_income),
    };
  // Only a miss needs the second query: is the ZIP unknown, or is there no data at all?
  const any = await anyZcta.executeTakeFirst(db, {});
  return any ? { kind: "unknown_zip", zcta: key.zcta } : { kind: "not_loaded" };
}

// Prepared once (db/prepared-query.ts): they run for every enrichment.
const findZcta = preparedQuery(["zcta"], (db, v: { zcta: string }) =>
  db.selectFrom("zip_incomes").select("median_household_income").where("zcta", "=", v.zcta),
);

const anyZcta = preparedQuery([], (db) =>
  db.selectFrom("zip_incomes").select("zcta").limit(sql.lit(1)),
);
