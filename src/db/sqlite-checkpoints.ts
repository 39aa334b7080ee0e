/**
 * WAL checkpoints off the serving thread. SQLite copies its write-ahead log back into the
 * database file itself, by default inside whichever COMMIT takes the WAL past 1,000 pages: a
 * copy of 4 MB and an fsync, on the event loop that serves orders, several times a second under
 * load, and the slowest COMMITs by far. A long-running process (`velvet serve`, `velvet worker`)
 * instead has a thread of its own checkpoint every CHECKPOINT_INTERVAL_MS; the serving
 * connection's own automatic checkpoint stays as a safety net, only at FALLBACK_PAGES (40 MB),
 * should the thread ever fall behind. Short commands keep SQLite's default.
 */

import type { Worker } from "node:worker_threads";
import type SQLite from "better-sqlite3";
import { startThread } from "../lib/start-thread.js";
import type { CheckpointThreadData } from "./sqlite-checkpoint-thread.js";

export const CHECKPOINT_INTERVAL_MS = 100;
const FALLBACK_PAGES = 10_000;

/**
 * Hears when checkpoints start failing (`failing`: the error) and when they work again (null):
 * once per change, not once per pass (a full disk would otherwise be reported every 100 ms).
 */
export type CheckpointListener = (state: { failing: string | null }) => void;

export interface BackgroundCheckpoints {
  stop(): Promise<void>;
}

export function startBackgroundCheckpoints(
  writer: SQLite.Database,
  file: string,
  onChange: CheckpointListener,
): BackgroundCheckpoints {
  writer.pragma(`wal_autocheckpoint = ${FALLBACK_PAGES}`);
  const data: CheckpointThreadData = { file, intervalMs: CHECKPOINT_INTERVAL_MS };
  const thread: Worker = startThread(new URL("./sqlite-checkpoint-thread.js", import.meta.url), {
    workerData: data,
  });
  thread.unref();
  thread.on("message", (message: { type: "error" | "recovered"; message: string }) =>
    onChange(message.type === "error" ? { failing: message.message } : { failing: null }),
  );
  thread.on("error", (error) => onChange({ failing: error.message }));
  const exited = new Promise<void>((resolve) => thread.once("exit", () => resolve()));
  return {
    async stop() {
      // Held (ref'd) while stopping: a thread still starting up has not yet seen "stop", and an
      // unref'd thread and timer would let the process end in the middle of this await.
      thread.ref();
      thread.postMessage("stop");
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([exited, new Promise((resolve) => (timer = setTimeout(resolve, 2000)))]);
      clearTimeout(timer);
      await thread.terminate();
    },
  };
}
