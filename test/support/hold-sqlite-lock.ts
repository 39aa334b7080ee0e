/**
 * Another process holding SQLite's write lock, as a separate `velvet worker`, an import or a
 * backup tool would: a child process opens the file, takes BEGIN IMMEDIATE, writes nothing,
 * and keeps the lock for `ms` before it rolls back and exits.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

const SCRIPT = `
const Database = require("better-sqlite3");
const db = new Database(process.argv[1]);
db.pragma("busy_timeout = 10000");
db.prepare("begin immediate").run();
process.stdout.write("locked\\n");
setTimeout(() => { db.prepare("rollback").run(); db.close(); }, Number(process.argv[2]));
`;

export interface HeldLock {
  /** Resolves when the other process has let the lock go and exited. */
  released: Promise<void>;
}

/** Resolves once the other process holds the write lock. */
export function holdWriteLock(file: string, ms: number): Promise<HeldLock> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", SCRIPT, file, String(ms)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "inherit"],
    });
    const released = new Promise<void>((done) => child.on("exit", () => done()));
    child.on("error", reject);
    child.stdout.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("locked")) resolve({ released });
    });
    child.on("exit", (code) => reject(new Error(`lock holder exited early (${code})`)));
  });
}
