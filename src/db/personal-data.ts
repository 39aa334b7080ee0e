/**
 * Where a person's data lives, declared by the feature that keeps it: its tables, the keys of
 * its pending jobs about the person, and its part of the export document. Each feature fills one
 * `PersonalDataHolder` and main.ts lists them in the privacy registry
 * (features/privacy/privacy-registry.ts), so erasure and export reach every table without
 * naming any: a new table of personal data is one holder and one registration.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.js";

export interface PersonalDataHolder {
  /** Keys of this feature's jobs that carry the person's data: deleted with the person. */
  jobKeys?(trx: Transaction<Database>, customerId: string): Promise<string[]>;
  /**
   * Deletes (or unlinks, where a record must stay, as billing's charge) this feature's rows
   * about the person, inside the erasure's transaction; the counts, by name, go to the audit
   * trail and the answer. Runs before the customer row itself is deleted.
   */
  erase(trx: Transaction<Database>, customerId: string): Promise<Record<string, number>>;
  /** This feature's sections of the export document ("show me what you hold about me"). */
  export?(db: Kysely<Database>, customerId: string): Promise<Record<string, unknown>>;
}

/** Rows a delete or update touched, from Kysely's result. */
export function rowsTouched(r: { numDeletedRows?: bigint; numUpdatedRows?: bigint }): number {
  return Number(r.numDeletedRows ?? r.numUpdatedRows ?? 0n);
}

/** An ISO instant, or null (the export document's time format). */
export const isoOrNull = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/** Stored JSON text as a value; text that is not JSON is given as it is. */
export function parseStored(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
