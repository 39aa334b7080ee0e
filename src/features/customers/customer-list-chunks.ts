/**
 * A customer list as text, produced as it is read (customer-list-entries.ts) so the writer
 * (stdout, an HTTP response) can apply backpressure and memory stays flat:
 * - `csv`: a header row, then one RFC 4180 record per customer, formula-like text defused
 *   (lib/csv.ts);
 * - `json`: one JSON object on one line, `{"customers":[…]}`, as every `--json` of the CLI
 *   prints exactly one object; it is written as it is read all the same.
 * Records are grouped into chunks of a few hundred so a large list is not a million tiny writes.
 */
import { csvRecord } from "../../lib/csv.js";
import {
  CUSTOMER_LIST_COLUMNS,
  type CustomerListEntry,
  entryCells,
} from "./customer-list-entries.js";

export type CustomerListFormat = "csv" | "json";

const RECORDS_PER_CHUNK = 200;

function recordOf(format: CustomerListFormat, e: CustomerListEntry, first: boolean): string {
  if (format === "csv") return csvRecord(entryCells(e));
  return `${first ? "" : ","}${JSON.stringify(e)}`;
}

export async function* customerListChunks(
  entries: AsyncIterable<CustomerListEntry>,
  format: CustomerListFormat,
): AsyncGenerator<string> {
  yield format === "csv" ? csvRecord(CUSTOMER_LIST_COLUMNS) : '{"customers":[';
  let chunk = "";
  let records = 0;
  let first = true;
  for await (const e of entries) {
    chunk += recordOf(format, e, first);
    first = false;
    if (++records % RECORDS_PER_CHUNK === 0) {
      yield chunk;
      chunk = "";
    }
  }
  if (format === "json") chunk += "]}\n";
  if (chunk !== "") yield chunk;
}
