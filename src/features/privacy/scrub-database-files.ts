/**
 * After an erasure: make sure no copy of the deleted rows is left in the database's files.
 *
 * SQLite: the writer connection runs with `secure_delete` on (db/connect.ts), so deleted cells
 * and freed pages are overwritten with zeros in the database file; but the WAL still holds the
 * pages as they were before, until it is copied back and emptied. A TRUNCATE checkpoint does
 * both (the WAL ends at zero bytes). It is retried while readers of older snapshots finish; if
 * one holds on past that, the WAL keeps old frames until the next full checkpoint, and the
 * answer says so.
 *
 * PostgreSQL: the rows are gone from every query, dump and replica from the commit on; their
 * dead tuples stay in the table files until (auto)vacuum reclaims the space (docs/privacy.md).
 */
import { sql } from "kysely";
import type { Db } from "../../db/connect.js";

export interface ScrubResult {
  /** SQLite: the WAL was emptied. Always true on PostgreSQL (nothing to do). */
  walCleared: boolean;
}

/**
 * The writer never waits inside SQLite (busy_timeout 0, db/connect.ts): a checkpoint running
 * elsewhere (the checkpoint thread) or a reader of an older snapshot makes ours report busy, and
 * it is tried again here, asynchronously, for up to a second.
 */
const ATTEMPTS = 40;
const RETRY_MS = 25;

export async function scrubDatabaseFiles(db: Db): Promise<ScrubResult> {
  if (db.dialect !== "sqlite") return { walCleared: true };
  for (let attempt = 1; ; attempt++) {
    const { rows } = await sql<{
      busy: number;
      log: number;
      checkpointed: number;
    }>`pragma wal_checkpoint(TRUNCATE)`.execute(db.kysely);
    if (rows[0]?.busy === 0) return { walCleared: true };
    if (attempt === ATTEMPTS) return { walCleared: false };
    await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
  }
}
