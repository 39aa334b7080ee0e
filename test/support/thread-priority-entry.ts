/** A thread that lowers its own priority and reports its nice value and the main thread's. */
import fs from "node:fs";
import os from "node:os";
import { parentPort } from "node:worker_threads";
import { lowerThreadPriority } from "../../src/lib/lower-thread-priority.js";

const lowered = lowerThreadPriority(7);
const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
parentPort?.postMessage({ lowered, own: os.getPriority(tid), main: os.getPriority(process.pid) });
