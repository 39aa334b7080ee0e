/**
 * Long-running child processes for tests: `worker-entry.ts` (a worker running the recording
 * task) or the real `velvet` program (built: built-velvet.ts), each against a test database, killable with
 * any signal. (`cli.ts` is for commands that exit by themselves.)
 */
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { VELVET_ENTRY } from "./built-velvet.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export interface RunningProcess {
  child: ChildProcess;
  /**
   * Resolves once the process has exited and its output is all read, with the exit code (null
   * when killed by a signal) and the signal.
   */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stdout(): string;
  stderr(): string;
}
export type WorkerProcess = RunningProcess;

/** `script` is run as it is (built JavaScript) or through tsx (a TypeScript test entry). */
function start(script: string, args: string[], env: Record<string, string>): RunningProcess {
  const loader = script.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  // "close", not "exit": the child's last output may still be in the pipe when it has exited,
  // and a test that reads stdout() once exited must see all of it.
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal })),
  );
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

export function spawnWorker(
  databaseUrl: string,
  env: Record<string, string> = {},
  args: string[] = [],
): WorkerProcess {
  return start("test/support/worker-entry.ts", args, { DATABASE_URL: databaseUrl, ...env });
}

/** `velvet <args>`, built (built-velvet.ts). */
export function spawnVelvet(
  args: string[],
  databaseUrl: string,
  env: Record<string, string> = {},
): RunningProcess {
  return start(VELVET_ENTRY, args, { DATABASE_URL: databaseUrl, ...env });
}
