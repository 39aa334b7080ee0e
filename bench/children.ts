/**
 * Child processes of the benchmark: every server runs in its own process, started here and
 * registered so that it is killed however the run ends (normal end, thrown error, Ctrl-C,
 * watchdog). Output goes to a log file, never to a pipe nobody reads (a full pipe would stall
 * the server and the benchmark would measure that instead).
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";

const running = new Set<ChildProcess>();

export interface StartedChild {
  process: ChildProcess;
  logFile: string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function startChild(
  command: string,
  args: string[],
  options: { env: NodeJS.ProcessEnv; logFile: string; cwd?: string },
): StartedChild {
  const log = fs.openSync(options.logFile, "a");
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    // stdin is a pipe the child may watch: it closes when the benchmark dies, even by SIGKILL.
    stdio: ["pipe", log, log],
  });
  fs.closeSync(log);
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    child.once("exit", () => resolve());
    child.once("error", () => resolve());
  });
  exited.then(() => running.delete(child));
  return {
    process: child,
    logFile: options.logFile,
    stop: async (graceMs = 5_000) => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Last resort, synchronous: used from the process 'exit' handler and the watchdog. */
export function killAllChildren(): void {
  for (const child of running) {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  }
  running.clear();
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Polls until the server answers anything at all, or fails with the tail of its log. */
export async function waitUntilAnswering(
  url: string,
  child: StartedChild,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) break;
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`server at ${url} did not start; last log lines:\n${tail(child.logFile)}`);
}

export function tail(file: string, lines = 20): string {
  try {
    return fs.readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Registers a child started elsewhere (a test helper's `velvet`) so that every exit kills it too. */
export function adoptChild(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  running.add(child);
  child.once("exit", () => running.delete(child));
}
