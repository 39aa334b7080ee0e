/**
 * Streams an order file into orders, one at a time: csv-parse reads it in chunks (memory stays
 * the same whatever the file's size), rows of one order (a Shopify or WooCommerce line-item
 * group, always consecutive in an export) are gathered, and each order is checked by the same
 * rules as the API's (`parseOrderRequest`) plus a date. Nothing here touches the database.
 */
import { createReadStream } from "node:fs";
import { parse } from "csv-parse";
import { type OrderSubmission, parseOrderRequest } from "../orders/order-request.js";
import {
  detectFormat,
  type ImportFormat,
  normalizeColumn,
  type RawOrder,
  REQUIRED_COLUMNS,
  type Row,
} from "./import-formats.js";
import { parseOrderDate } from "./parse-order-date.js";

export class ImportError extends Error {
  override name = "ImportError";
}

export type FileItem =
  | { kind: "order"; line: number; rows: number; submission: OrderSubmission; orderedAt: number }
  | { kind: "error"; line: number; rows: number; reason: string };

export interface FileProgress {
  /** Bytes of the file read so far. */
  bytes: number;
}

export async function* readOrderFile(
  path: string,
  progress: FileProgress = { bytes: 0 },
): AsyncGenerator<FileItem> {
  const source = createReadStream(path);
  const parser = source.pipe(
    parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true }),
  );
  // pipe() does not pass a read error on: without this, an unreadable file (a directory, no
  // permission) is an unhandled 'error' event and a stack trace instead of a message.
  source.on("error", (error) => parser.destroy(error));
  let format: ImportFormat | null = null;
  let index = new Map<string, number>();
  let group: { key: string; line: number; rows: number; first: Row } | null = null;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: string[];
      info: { lines: number; bytes: number };
    }>) {
      progress.bytes = info.bytes;
      if (format === null) {
        format = detectFormat(record);
        if (format === null) {
          throw new ImportError(
            `Not a Shopify, WooCommerce or plain order export: the header lacks the columns of each (${REQUIRED_COLUMNS})`,
          );
        }
        index = new Map(record.map((name, i) => [normalizeColumn(name), i]));
        continue;
      }
      const columns = index;
      const row: Row = (column) => {
        const i = columns.get(column);
        const value = i === undefined ? undefined : record[i]?.trim();
        return value === undefined || value === "" ? null : value;
      };
      const key = format.groupKey(row);
      if (group !== null && key !== "" && key === group.key) {
        group.rows += 1;
        continue;
      }
      if (group !== null) yield toItem(format, group);
      group = { key, line: info.lines, rows: 1, first: row };
    }
  } catch (error) {
    if (error instanceof ImportError) throw error;
    const code = (error as { code?: string }).code;
    if (code === "ENOENT") throw new ImportError(`No such file: ${path}`);
    if (code === "EISDIR") throw new ImportError(`Not a file but a directory: ${path}`);
    if (code === "EACCES") throw new ImportError(`No permission to read ${path}`);
    if (code?.startsWith("CSV_"))
      throw new ImportError(`Not a readable CSV file: ${(error as Error).message}`);
    throw error;
  }
  if (format === null) throw new ImportError("The file is empty: no header row");
  if (group !== null) yield toItem(format, group);
}

function toItem(format: ImportFormat, group: { line: number; rows: number; first: Row }): FileItem {
  const raw = format.read(group.first);
  const at = { line: group.line, rows: group.rows };
  const problem = checkRaw(raw);
  if (problem !== null) return { kind: "error", ...at, reason: problem };
  const parsed = parseOrderRequest(toRequestBody(raw));
  if (!parsed.ok) return { kind: "error", ...at, reason: parsed.message };
  const orderedAt = parseOrderDate(raw.orderedAt ?? "");
  if (orderedAt === null) {
    return {
      kind: "error",
      ...at,
      reason: `order date ${JSON.stringify(raw.orderedAt)} is not a date such as 2024-03-05 14:02:11 -0500`,
    };
  }
  return { kind: "order", ...at, submission: parsed.value, orderedAt };
}

/** What the API would accept but an import cannot: no id to de-duplicate on, no date. */
function checkRaw(raw: RawOrder): string | null {
  if (raw.orderId === null) {
    return "the order has no id: without one a second run would import it twice";
  }
  if (raw.orderedAt === null) return "the order has no date";
  return null;
}

function toRequestBody(raw: RawOrder): unknown {
  const address =
    (raw.city ?? raw.state ?? raw.zipcode ?? raw.country)
      ? { city: raw.city, state: raw.state, zipcode: raw.zipcode, country: raw.country }
      : undefined;
  return {
    email: raw.email,
    firstName: raw.firstName,
    lastName: raw.lastName,
    phone: raw.phone,
    address,
    order: {
      id: raw.orderId,
      number: raw.orderNumber,
      total: raw.total,
      currency: raw.currency ?? undefined,
    },
  };
}
