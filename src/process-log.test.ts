/**
 * The process log gathers lines in memory and writes them off the hot path: whatever is still
 * gathered when the process ends must reach stdout, whether the event loop empties (the
 * destination then ends itself first) or process.exit() is called. Stdout is a pipe here, as
 * under a supervisor or `docker logs`, where the asynchronous writes make the ending race.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

function run(how: "natural" | "exit"): Promise<{ code: number | null; stdout: string }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", "test/support/log-then-exit-entry.ts", how],
    { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
  );
  let stdout = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stdout })));
}

describe("the process log at exit", () => {
  for (const how of ["natural", "exit"] as const) {
    it(`writes every gathered line when the process ends (${how})`, async () => {
      // The loss was a race: several runs at once, each must have all three lines.
      const runs = await Promise.all(Array.from({ length: 4 }, () => run(how)));
      for (const { code, stdout } of runs) {
        expect(code).toBe(0);
        const messages = stdout
          .trim()
          .split("\n")
          .map((line) => (JSON.parse(line) as { msg: string }).msg);
        expect(messages).toEqual(["first", "second", "last"]);
      }
    });
  }
});
