/**
 * Lowers the calling thread's CPU priority (Linux; a no-op elsewhere). On Linux every thread
 * is a task with its own nice value: a helper thread at a higher nice value yields the CPU to
 * the main thread, which serves requests, whenever the two want the same core. The helper only
 * waits longer when the machine is busy; it is never starved (nice 10 still gets its share).
 */
import fs from "node:fs";
import os from "node:os";

export const HELPER_NICE = 10;

export function lowerThreadPriority(nice = HELPER_NICE): boolean {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}
