/**
 * Loads the Census median household income by ZCTA into `zip_incomes`, replacing what was
 * there, so a re-import of the same file is idempotent and a newer vintage replaces the older.
 *
 * The file is streamed and parsed completely before the database is touched: a file this
 * importer does not understand fails with ZipIncomeFileError and changes nothing, and the write
 * lock (SQLite has one writer) is held only for the insert itself, not while reading a disk.
 * The replacement is one transaction of multi-row inserts: readers see the old table or the
 * new one, never a half-loaded one. 30k rows take well under a second on either engine.
 */
import fs from "node:fs";
import readline from "node:readline";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { detectLayout, parseLine, type ZipIncomeRow } from "./zip-income-csv.js";

/** 3 parameters a row: 3,000 per statement, far below SQLite's 32,766 and PostgreSQL's 65,535. */
const BATCH_ROWS = 1000;

export class ZipIncomeFileError extends Error {
  override name = "ZipIncomeFileError";
}

export interface ZipIncomeImport {
  rows: number;
  skipped: number;
}

export async function importZipIncome(
  db: Kysely<Database>,
  filePath: string,
): Promise<ZipIncomeImport> {
  const { rows, skipped } = await readZipIncomeFile(filePath);
  if (rows.length === 0) {
    throw new ZipIncomeFileError(
      `${filePath} has no ZIP code with an income estimate; nothing was changed`,
    );
  }
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("zip_incomes").execute();
    await insertZipIncomes(trx, rows);
  });
  return { rows: rows.length, skipped };
}

export async function insertZipIncomes(
  trx: Transaction<Database>,
  rows: readonly ZipIncomeRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH_ROWS) {
    const values = rows.slice(i, i + BATCH_ROWS).map((r) => ({
      zcta: r.zcta,
      median_household_income: r.medianHouseholdIncome,
      margin_of_error: r.marginOfError,
    }));
    await trx.insertInto("zip_incomes").values(values).execute();
  }
}

/** Rows to import (the first of any duplicate ZCTA wins) and the count of data rows skipped. */
export async function readZipIncomeFile(
  filePath: string,
): Promise<{ rows: ZipIncomeRow[]; skipped: number }> {
  await assertReadableFile(filePath);
  const byZcta = new Map<string, ZipIncomeRow>();
  let skipped = 0;
  let layout: ReturnType<typeof detectLayout> = null;
  const lines = readline.createInterface({
    input: fs.createReadStream(filePath, { encoding: "utf8" }),
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  try {
    for await (const line of lines) {
      if (line.trim() === "") continue;
      if (layout === null) {
        layout = detectLayout(line);
        if (layout === null) throw unrecognisedHeader(filePath, line);
        continue;
      }
      const parsed = parseLine(line, layout);
      if (parsed.kind === "header") continue;
      if (parsed.kind === "skip" || byZcta.has(parsed.row.zcta)) skipped++;
      else byZcta.set(parsed.row.zcta, parsed.row);
    }
  } catch (error) {
    if (error instanceof ZipIncomeFileError) throw error;
    throw new ZipIncomeFileError(`cannot read ${filePath}: ${(error as Error).message}`);
  } finally {
    lines.close();
  }
  if (layout === null) throw new ZipIncomeFileError(`${filePath} is empty`);
  return { rows: [...byZcta.values()], skipped };
}

async function assertReadableFile(filePath: string): Promise<void> {
  let stat: fs.Stats;
  try {
    stat = await fs.promises.stat(filePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ZipIncomeFileError(
      code === "ENOENT" ? `no such file: ${filePath}` : `cannot read ${filePath}: ${code}`,
    );
  }
  if (!stat.isFile()) throw new ZipIncomeFileError(`not a file: ${filePath}`);
}

function unrecognisedHeader(filePath: string, line: string): ZipIncomeFileError {
  const shown = line.length > 120 ? `${line.slice(0, 120)}…` : line;
  return new ZipIncomeFileError(
    `${filePath} is not a recognised ZIP income file: its first line is "${shown}"; expected ` +
      `"zcta,median_household_income[,margin_of_error]", a data.census.gov B19013 export ` +
      `("GEO_ID","NAME","B19013_001E","B19013_001M") or a Census summary file ` +
      `(GEO_ID|B19013_E001|B19013_M001)`,
  );
}
