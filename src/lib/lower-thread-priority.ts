/**
 * Lowers the calling thread's CPU priority (Linux; a no-op elsewhere). On Linux every thread
 * is a task with its own nice value: a helper thread at a higher nice value yields the CPU to
 * the main thread, which serves requests, whenever the two want the same core. The helper only
 * waits longer when the machine is busy; it is never starved (nice +10 still gets its share).
 *
 * The nice value goes up by `by` from the thread's own (as `nice -n` does), to 19 at most: a
 * process started at nice 5 gets its helpers at 15, one at 15 at 19. Never below where it
 * started, which would put a helper ahead of the serving thread (and which only a privileged
 * process may do).
 */
import fs from "node:fs";
import os from "node:os";

export const HELPER_NICE = 10;
/** The lowest priority Linux has. */
const MAX_NICE = 19;

export function lowerThreadPriority(by = HELPER_NICE): boolean {
  try {
    const tid = Number(fs.readlinkSync("/proc/thread-self").split("/").pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    const own = os.getPriority(tid);
    os.setPriority(tid, Math.min(MAX_NICE, own + Math.max(0, by)));
    return true;
  } catch {
    return false;
  }
}
