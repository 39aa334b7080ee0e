/**
 * Reading ZIP-code income files, one line at a time. Three layouts are recognised by header:
 * - plain:  `zcta,median_household_income[,margin_of_error]` (the project's shared file);
 * - data.census.gov table export: `"GEO_ID","NAME","B19013_001E","B19013_001M",` with a second,
 *   descriptive header row ("Geography", "Estimate!!…"), GEO_ID like `860Z200US00601`;
 * - Census table-based Summary File (`acsdt5y20xx-b19013.dat`): `GEO_ID|B19013_E001|B19013_M001`,
 *   pipe-delimited.
 * Column names are matched case-insensitively, so column order does not matter. Values: an
 * estimate is a whole number of dollars ("1,234" allowed); the Census codes "250,000+" and
 * "2,500-" become 250001 and 2499 (the Census's own coded values); "-", "N", "(X)", "**" and
 * negative jam values (-666666666 …) mean no estimate and the row is skipped. A margin of error
 * that is not a number ("***", "**", "-", jam values) is stored as null.
 */

export interface ZipIncomeRow {
  zcta: string;
  medianHouseholdIncome: number;
  marginOfError: number | null;
}

export interface ZipIncomeLayout {
  name: "plain" | "census-table" | "census-summary-file";
  delimiter: "," | "|";
  zcta: number;
  estimate: number;
  margin: number | null;
}

/** A data row's verdict: a row to import, a header line to pass over, or a row to skip. */
export type ParsedLine = { kind: "row"; row: ZipIncomeRow } | { kind: "header" } | { kind: "skip" };

const ZCTA_COLUMNS = ["zcta", "geo_id"];
const ESTIMATE_COLUMNS = ["median_household_income", "b19013_001e", "b19013_e001"];
const MARGIN_COLUMNS = ["margin_of_error", "b19013_001m", "b19013_m001"];

/** Recognises the header line, or returns null for a file this importer does not understand. */
export function detectLayout(headerLine: string): ZipIncomeLayout | null {
  const line = headerLine.replace(/^\uFEFF/, "");
  const delimiter = line.includes("|") && !line.includes(",") ? "|" : ",";
  const names = splitLine(line, delimiter).map((c) => c.trim().toLowerCase());
  const zcta = names.findIndex((n) => ZCTA_COLUMNS.includes(n));
  const estimate = names.findIndex((n) => ESTIMATE_COLUMNS.includes(n));
  if (zcta < 0 || estimate < 0) return null;
  const margin = names.findIndex((n) => MARGIN_COLUMNS.includes(n));
  const name =
    names[zcta] === "zcta" ? "plain" : delimiter === "|" ? "census-summary-file" : "census-table";
  return { name, delimiter, zcta, estimate, margin: margin < 0 ? null : margin };
}

export function parseLine(line: string, layout: ZipIncomeLayout): ParsedLine {
  const cells = splitLine(line, layout.delimiter);
  const estimateCell = (cells[layout.estimate] ?? "").trim();
  // data.census.gov's second header row: "Geography","Geographic Area Name","Estimate!!…".
  if (/^estimate\b/i.test(estimateCell)) return { kind: "header" };
  const zcta = parseZcta(cells[layout.zcta] ?? "");
  const income = parseEstimate(estimateCell);
  if (zcta === null || income === null) return { kind: "skip" };
  const margin = layout.margin === null ? null : parseMargin(cells[layout.margin] ?? "");
  return { kind: "row", row: { zcta, medianHouseholdIncome: income, marginOfError: margin } };
}

/**
 * A 5-digit ZCTA, leading zeros kept. Accepts the bare code (a spreadsheet that dropped leading
 * zeros, "601", is padded back), a GEO_ID (`860Z200US00601`) or a NAME (`ZCTA5 00601`).
 * Any other geography (a state, the nation) is not a ZCTA.
 */
export function parseZcta(cell: string): string | null {
  const v = cell.trim();
  if (/^\d{1,5}$/.test(v)) return v.padStart(5, "0");
  // Summary level 860 is the ZCTA; "860Z200US" since 2020, "8600000US" before.
  const m = /^860[0-9A-Z]{4}US(\d{5})$/i.exec(v) ?? /^ZCTA5 (\d{5})$/i.exec(v);
  return m?.[1] ?? null;
}

export function parseEstimate(cell: string): number | null {
  const v = cell.trim();
  const coded = /^([\d,]+)([+-])$/.exec(v);
  if (coded?.[1] && coded[2]) {
    const n = wholeNumber(coded[1]);
    if (n === null) return null;
    return coded[2] === "+" ? n + 1 : n - 1;
  }
  return wholeNumber(v);
}

export function parseMargin(cell: string): number | null {
  return wholeNumber(cell.trim());
}

/** A non-negative whole number, thousands separators allowed; anything else (jam values) null. */
function wholeNumber(v: string): number | null {
  if (!/^\d{1,3}(,\d{3})*$|^\d+$/.test(v)) return null;
  const n = Number(v.replaceAll(",", ""));
  return Number.isSafeInteger(n) ? n : null;
}

/** Splits one CSV line: double-quoted fields may contain the delimiter and doubled quotes. */
export function splitLine(line: string, delimiter: "," | "|"): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === delimiter) {
      cells.push(cell);
      cell = "";
    } else cell += ch;
  }
  cells.push(cell);
  return cells;
}
