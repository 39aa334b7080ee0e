/**
 * `velvet serve` as a child process on a loopback port of the system's choice, for tests where
 * several real processes share one database; resolves once it listens, with its URL.
 */
import { waitFor } from "./job-deps.js";
import { type RunningProcess, spawnVelvet } from "./spawn-worker.js";

export interface ServeProcess extends RunningProcess {
  url: string;
  stop(): Promise<void>;
}

const LISTENING = /"url":"(http:[^"]+)"[^\n]*"msg":"velvet is listening"/;

export async function startServeProcess(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ServeProcess> {
  const velvet = spawnVelvet(["serve"], databaseUrl, {
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "info",
    WORKER_POLL_INTERVAL_MS: "50",
    ...env,
  });
  await waitFor(
    "velvet serve to listen",
    () => LISTENING.test(velvet.stdout()) || velvet.child.exitCode !== null,
    30_000,
  );
  const url = LISTENING.exec(velvet.stdout())?.[1];
  if (url === undefined) throw new Error(`velvet serve did not start: ${velvet.stderr()}`);
  return { ...velvet, url, stop: () => stopProcess(velvet) };
}

/** SIGTERM, then SIGKILL if it has not exited after 10 s. */
export async function stopProcess(velvet: RunningProcess): Promise<void> {
  if (velvet.child.exitCode !== null || velvet.child.signalCode !== null) return;
  velvet.child.kill("SIGTERM");
  const timer = setTimeout(() => velvet.child.kill("SIGKILL"), 10_000);
  await velvet.exited;
  clearTimeout(timer);
}
