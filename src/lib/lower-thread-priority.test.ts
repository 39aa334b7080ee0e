import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { startThread } from "./start-thread.js";

interface Report {
  lowered: boolean;
  own: number;
  main: number;
}

async function lowerInThread(workerData?: { start: number }): Promise<Report> {
  const thread = startThread(
    new URL("../../test/support/thread-priority-entry.js", import.meta.url),
    { workerData },
  );
  try {
    return await new Promise<Report>((resolve, reject) => {
      thread.once("message", resolve);
      thread.once("error", reject);
    });
  } finally {
    await thread.terminate();
  }
}

describe.skipIf(!fs.existsSync("/proc/thread-self"))("lowerThreadPriority (Linux)", () => {
  it("lowers the calling thread only, not the process's main thread", async () => {
    const report = await lowerInThread();
    // Relative to where the process started (the suite may itself run under `nice`).
    expect(report.lowered).toBe(true);
    expect(report.own).toBe(Math.min(19, report.main + 7));
    expect(report.own).toBeGreaterThanOrEqual(report.main);
  });

  it("goes up from the thread's own nice value and stops at 19, never back down", async () => {
    const report = await lowerInThread({ start: 15 });
    expect(report.lowered).toBe(true);
    // From 15 (or the process's own value, when later): capped at 19, not set to 7.
    expect(report.own).toBe(19);
  });
});
