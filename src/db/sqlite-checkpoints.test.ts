/**
 * Background checkpoints on a real SQLite file: the WAL reaches the database file without any
 * checkpoint on the serving connection, and closing stops the thread.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "./connect.js";
import { CHECKPOINT_INTERVAL_MS } from "./sqlite-checkpoints.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-checkpoints-"));
  dirs.push(dir);
  return path.join(dir, "velvet.db");
}

/** About 2 MB in the WAL: under SQLite's own 1,000-page automatic checkpoint. */
async function write2MB(db: Db): Promise<void> {
  await sql`create table filler (body text not null)`.execute(db.kysely);
  const body = "x".repeat(1000);
  await db.kysely.transaction().execute(async (trx) => {
    for (let i = 0; i < 2000; i++)
      await sql`insert into filler (body) values (${body})`.execute(trx);
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("SQLite background checkpoints", () => {
  it("copies the WAL into the database file from their own thread", async () => {
    const file = tempFile();
    const errors: Array<string | null> = [];
    const db = openDatabase(
      { kind: "sqlite", file },
      { backgroundCheckpoints: (e) => errors.push(e.failing) },
    );
    try {
      await write2MB(db);
      const deadline = Date.now() + 5_000;
      while (fs.statSync(file).size < 2_000_000 && Date.now() < deadline) {
        await sleep(CHECKPOINT_INTERVAL_MS);
      }
      expect(fs.statSync(file).size).toBeGreaterThan(2_000_000);
      expect(errors).toEqual([]);
    } finally {
      await db.close();
    }
  });

  it("leaves the WAL alone without them (the control: no checkpoint under 1,000 pages)", async () => {
    const file = tempFile();
    const db = openDatabase({ kind: "sqlite", file });
    try {
      await write2MB(db);
      await sleep(CHECKPOINT_INTERVAL_MS * 5);
      expect(fs.statSync(file).size).toBeLessThan(1_000_000);
      expect(fs.statSync(`${file}-wal`).size).toBeGreaterThan(2_000_000);
    } finally {
      await db.close();
    }
  });
});
