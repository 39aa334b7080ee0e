import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { startThread } from "./start-thread.js";

describe.skipIf(!fs.existsSync("/proc/thread-self"))("lowerThreadPriority (Linux)", () => {
  it("lowers the calling thread only, not the process's main thread", async () => {
    const thread = startThread(
      new URL("../../test/support/thread-priority-entry.js", import.meta.url),
    );
    const report = await new Promise<{ lowered: boolean; own: number; main: number }>(
      (resolve, reject) => {
        thread.once("message", resolve);
        thread.once("error", reject);
      },
    );
    await thread.terminate();
    expect(report.lowered).toBe(true);
    expect(report.own).toBe(7);
    expect(report.main).toBeLessThan(7);
  });
});
