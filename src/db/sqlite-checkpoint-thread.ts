/**
 * The checkpoint thread's program (see sqlite-checkpoints.ts): its own connection to the SQLite
 * file, copying the WAL back into the database every `intervalMs`. A PASSIVE checkpoint never
 * waits for, nor blocks, the writers and readers of the serving thread. When writes came in
 * during a pass it goes again at once (a few times at most): the WAL can only start over from
 * its beginning, instead of growing, once a pass has copied every frame.
 */

import { parentPort, workerData } from "node:worker_threads";
import SQLite from "better-sqlite3";
import { lowerThreadPriority } from "../lib/lower-thread-priority.js";

export interface CheckpointThreadData {
  file: string;
  intervalMs: number;
}

const MAX_PASSES = 5;

const port = parentPort;
if (port === null) throw new Error("sqlite-checkpoint-thread runs only as a worker thread");
const { file, intervalMs } = workerData as CheckpointThreadData;
// Copying the WAL is never urgent: the thread that serves requests gets the CPU first.
lowerThreadPriority();
const db = new SQLite(file);
// Another process's checkpoint in progress is not an error: skip this round.
db.pragma("busy_timeout = 0");

interface CheckpointRow {
  busy: number;
  log: number;
  checkpointed: number;
}

function checkpoint(): void {
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const [row] = db.pragma("wal_checkpoint(PASSIVE)") as CheckpointRow[];
    if (row === undefined || row.busy !== 0 || row.checkpointed >= row.log) return;
  }
}

// Told once when checkpoints start failing (a full disk fails every pass, every intervalMs),
// again only if the error changes, and once when a pass succeeds again.
let failingWith: string | null = null;

const timer = setInterval(() => {
  try {
    checkpoint();
    if (failingWith !== null) port.postMessage({ type: "recovered", message: failingWith });
    failingWith = null;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (message !== failingWith) port.postMessage({ type: "error", message });
    failingWith = message;
  }
}, intervalMs);

port.on("message", (message: unknown) => {
  if (message !== "stop") return;
  clearInterval(timer);
  db.close();
  port.close();
});
