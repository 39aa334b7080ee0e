/**
 * A thread that lowers its own priority and reports its nice value and the main thread's.
 * workerData `{ start }`: the thread first moves itself to that nice value (a later one only).
 */
import fs from "node:fs";
import os from "node:os";
import { parentPort, workerData } from "node:worker_threads";
import { lowerThreadPriority } from "../../src/lib/lower-thread-priority.js";

const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
const start = (workerData as { start?: number } | undefined)?.start;
if (start !== undefined && start > os.getPriority(tid)) os.setPriority(tid, start);
const lowered = lowerThreadPriority(7);
parentPort?.postMessage({ lowered, own: os.getPriority(tid), main: os.getPriority(process.pid) });
