/**
 * The rate file Velvet ships (`ecb/euro-reference-rates.csv`, docs/scoring.md says where it came
 * from): `date,currency,rate`, one line per currency of one day, the rate in units of the
 * currency for one euro. Small (about thirty lines), so it is read whole.
 */
import fs from "node:fs/promises";
import { ECB_SOURCE, type RateDay, rateDayProblem } from "./rate-day.js";

export class RatesFileError extends Error {
  override name = "RatesFileError";
}

export async function readRatesCsv(file: string): Promise<RateDay> {
  const text = await fs.readFile(file, "utf8");
  return parseRatesCsv(text, file);
}

export function parseRatesCsv(text: string, name: string): RateDay {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  if (lines[0]?.trim() !== "date,currency,rate") {
    throw new RatesFileError(`${name}: the first line must be "date,currency,rate"`);
  }
  const dates = new Set<string>();
  const rates = new Map<string, string>();
  for (const [i, line] of lines.slice(1).entries()) {
    const [date, currency, rate, extra] = line.split(",").map((c) => c.trim());
    if (date === undefined || currency === undefined || rate === undefined || extra !== undefined) {
      throw new RatesFileError(`${name}, line ${i + 2}: expected date,currency,rate`);
    }
    if (rates.has(currency)) throw new RatesFileError(`${name}: ${currency} appears twice`);
    dates.add(date);
    rates.set(currency, rate);
  }
  if (dates.size !== 1) throw new RatesFileError(`${name}: the rates must be of one day`);
  const day: RateDay = { date: [...dates][0] as string, source: ECB_SOURCE, rates };
  const problem = rateDayProblem(day);
  if (problem !== null) throw new RatesFileError(`${name}: ${problem}`);
  return day;
}
