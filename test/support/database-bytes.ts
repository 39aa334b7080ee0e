/**
 * Searches a test database's files for a string, as an attacker with a copy of them would:
 * on SQLite the raw bytes of the database file and its WAL (free pages and old frames
 * included); on PostgreSQL the output of `pg_dump`. Without pg_dump the PostgreSQL search is
 * skipped with a loud warning, except under CI=true, where that is a failure.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import { promisify } from "node:util";
import type { TestDatabase } from "./databases.js";

const run = promisify(execFile);

async function pgDump(url: string): Promise<Buffer> {
  try {
    const { stdout } = await run("pg_dump", ["--no-owner", url], {
      encoding: "buffer",
      maxBuffer: 512 * 1024 * 1024,
    });
    return stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      const message =
        "pg_dump is not installed: the PostgreSQL raw-data search cannot run (apt-get install postgresql-client).";
      if (process.env.CI === "true") throw new Error(`${message} Under CI=true this is a failure.`);
      process.stderr.write(`\n${"!".repeat(80)}\n!! WARNING: ${message}\n${"!".repeat(80)}\n\n`);
      return Buffer.alloc(0);
    }
    throw error;
  }
}

function readIfThere(file: string): Buffer {
  return fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(0);
}

export async function databaseContains(database: TestDatabase, needle: string): Promise<boolean> {
  const bytes = Buffer.from(needle, "utf8");
  if (database.target.kind === "sqlite") {
    const file = database.target.file;
    return [file, `${file}-wal`].some((f) => readIfThere(f).includes(bytes));
  }
  return (await pgDump(database.url)).includes(bytes);
}
