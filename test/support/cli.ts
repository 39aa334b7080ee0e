/**
 * Runs the real `velvet` program from source (`node --import tsx src/cli/index.ts`), so CLI
 * tests need no build. Each run is a separate process (~0.5 s): keep CLI tests few.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runVelvet(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/cli/index.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, LOG_LEVEL: "warn", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The one JSON object a `--json` command must print, and nothing else. */
export function onlyJson(run: CliRun): Record<string, unknown> {
  if (run.code !== 0) throw new Error(`velvet exited ${run.code}: ${run.stderr}`);
  const lines = run.stdout.split("\n").filter((l) => l !== "");
  if (lines.length !== 1) throw new Error(`expected one line on stdout, got: ${run.stdout}`);
  const value: unknown = JSON.parse(lines[0] as string);
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error(`expected a JSON object, got: ${run.stdout}`);
  }
  return value as Record<string, unknown>;
}
