/**
 * Runs the real `velvet` program, built (built-velvet.ts: the suite builds it from the source
 * first). Each run is a separate process (~0.4 s): keep CLI tests few.
 *
 * Every failing run is held to docs/cli.md's promise, "errors go to stderr as one message": a
 * run that exits non-zero with anything but exactly one line on stderr (a usage dump, a log
 * line, a stack trace) rejects, so every CLI error path the suite exercises is checked.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VELVET_ENTRY } from "./built-velvet.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runVelvet(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [VELVET_ENTRY, ...args], {
      cwd: ROOT,
      // The level a person at a terminal has unless they ask for more.
      env: { ...process.env, LOG_LEVEL: "info", ...env },
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
    child.on("close", (code) => {
      const problem = oneErrorLineProblem({ code, stdout, stderr });
      if (problem === null) resolve({ code, stdout, stderr });
      else reject(new Error(`velvet ${args.join(" ")}: ${problem}`));
    });
  });
}

/**
 * Null when the run kept the error promise (exit 0, or a non-zero exit with exactly one line on
 * stderr, starting "velvet: "); else what is wrong.
 */
export function oneErrorLineProblem(run: CliRun): string | null {
  if (run.code === 0) return null;
  const lines = run.stderr.split("\n").filter((line) => line !== "");
  if (lines.length === 1 && lines[0]?.startsWith("velvet: ")) return null;
  return `exited ${run.code} with ${lines.length} lines on stderr instead of one "velvet: …" message:\n${run.stderr}`;
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
