/**
 * Writing CSV that a spreadsheet opens as data, never as formulas.
 *
 * - RFC 4180: records end with CRLF; a field holding a double quote has it doubled inside
 *   double quotes. Every text field is quoted, not only those with a comma, a quote or a line
 *   break: a spreadsheet whose locale splits on `;` would otherwise start a new cell in the
 *   middle of a customer's name (OWASP's CSV Injection page warns of exactly that).
 * - Formula injection (OWASP, https://owasp.org/www-community/attacks/CSV_Injection; ASVS 5.0
 *   V1.2.10; CWE-1236): a text field starting with `=`, `+`, `-`, `@`, tab (0x09), carriage
 *   return (0x0D) or line feed (0x0A, added to OWASP's list in 2025) is prefixed with a single
 *   quote, which spreadsheets take as "this is text" (the mitigation Symfony adopted for
 *   CVE-2021-41270). Numbers are written as numbers: they are ours, not a customer's text.
 */

export type CsvCell = string | number | boolean | null;

const FORMULA_START = /^[=+\-@\t\r\n]/;

/** A text field as a spreadsheet must read it: as text. */
export function defuseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

export function csvField(cell: CsvCell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  if (typeof cell === "boolean") return cell ? "true" : "false";
  return `"${defuseFormula(cell).replace(/"/g, '""')}"`;
}

/** One record, CRLF-terminated (RFC 4180 section 2.1). */
export function csvRecord(cells: readonly CsvCell[]): string {
  return `${cells.map(csvField).join(",")}\r\n`;
}
