/**
 * Starts a worker thread on one of our modules, built or from source. Built, `entry` is a
 * dist/…/*.js file and runs as it is. From source (tsx, Vitest) only the .ts file exists, and a
 * thread can load it only through thread-from-source.mjs, which registers tsx first.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";

/** `entry`: the module's .js URL, e.g. new URL("./my-thread.js", import.meta.url). */
export function startThread(entry: URL, options: WorkerOptions = {}): Worker {
  if (fs.existsSync(fileURLToPath(entry))) return new Worker(entry, options);
  const source = new URL(entry.href.replace(/\.js$/, ".ts"));
  const bootstrap = new URL("./thread-from-source.mjs", import.meta.url);
  return new Worker(bootstrap, { ...options, argv: [...(options.argv ?? []), source.href] });
}
