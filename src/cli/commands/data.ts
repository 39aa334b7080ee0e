import type { Command } from "commander";
import { readHeldRates } from "../../features/exchange-rates/held-rates.js";
import { refreshReferenceRates } from "../../features/exchange-rates/refresh-reference-rates.js";
import {
  importZipIncome,
  ZipIncomeFileError,
} from "../../features/zip-income/import-zip-income.js";
import { plural } from "../../lib/plural.js";
import { CliError, printResult } from "../output.js";
import { renderTable } from "../table.js";
import { withDeps } from "../with-deps.js";

export function registerData(program: Command): void {
  const data = program.command("data").description("load reference data");

  data
    .command("import-zip-income")
    .description(
      "load Census ACS median household income by ZIP code (ZCTA) for the affluent-area signal; " +
        "replaces the data loaded before",
    )
    .argument(
      "<file.csv>",
      "zcta,median_household_income[,margin_of_error] CSV, or a Census B19013 download",
    )
    .option("--json", "print one JSON object")
    .action(async (file: string, opts: { json?: boolean }) => {
      const result = await withDeps(async (deps) => {
        try {
          return await importZipIncome(deps.db.kysely, file);
        } catch (error) {
          if (error instanceof ZipIncomeFileError) throw new CliError(error.message);
          throw error;
        }
      });
      printResult(
        Boolean(opts.json),
        { imported: result.rows, skipped: result.skipped },
        () =>
          `Imported ${plural(result.rows, "ZIP code income")} (${plural(result.skipped, "row")} skipped: no estimate, not a ZCTA or repeated).`,
      );
    });

  data
    .command("refresh-rates")
    .description(
      "download the ECB's euro reference rates of the latest working day (ECB_RATES_URL) and " +
        "store them for converting order values to US dollars",
    )
    .option("--json", "print one JSON object")
    .action(async (opts: { json?: boolean }) => {
      const outcome = await withDeps(
        (deps) =>
          refreshReferenceRates(deps, deps.config.exchangeRates.url, AbortSignal.timeout(60_000)),
        { providers: false },
      );
      if (outcome.kind === "failed") throw new CliError(`Rates not refreshed: ${outcome.reason}.`);
      const stored = outcome.kind === "stored";
      printResult(
        Boolean(opts.json),
        stored
          ? {
              stored: true,
              date: outcome.date,
              currencies: outcome.currencies,
              replaced: outcome.replaced,
            }
          : { stored: false, date: outcome.date, heldDate: outcome.heldDate },
        () =>
          outcome.kind === "stored"
            ? `Stored the ECB reference rates of ${outcome.date} (${plural(outcome.currencies, "currency", "currencies")}).`
            : `The ECB's rates are of ${outcome.date}, older than the ${outcome.heldDate} rates held: nothing changed.`,
      );
    });

  data
    .command("rates")
    .description("the euro reference rates held: their day, publisher and each currency's rate")
    .option("--json", "print one JSON object")
    .action(async (opts: { json?: boolean }) => {
      const held = await withDeps((deps) => readHeldRates(deps.db.kysely), { providers: false });
      if (held === null) throw new CliError("No reference rates are held.");
      printResult(Boolean(opts.json), held, () =>
        [
          `${held.source} euro reference rates of ${held.date} (stored ${new Date(held.storedAt).toISOString()}).`,
          renderTable(
            ["currency", "per EUR", "USD per unit"],
            held.rates.map((r) => [r.currency, r.perEur, r.usdPerUnit]),
          ),
        ].join("\n"),
      );
    });
}
