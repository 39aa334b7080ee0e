/**
 * Starts a baseline server in its own process on a free port: bench/baseline-server.ts on a
 * fresh SQLite file, or (startPgBaseline) bench/pg-baseline-server.ts on a PostgreSQL database.
 */
import path from "node:path";
import { freePort, type StartedChild, startChild, waitUntilAnswering } from "./children.js";

export interface BaselineServer {
  url: string;
  child: StartedChild;
  stop(): Promise<void>;
}

export function startBaseline(dir: string): Promise<BaselineServer> {
  return start(dir, "baseline-server.ts", { DATABASE_FILE: path.join(dir, "baseline.db") });
}

export function startPgBaseline(dir: string, databaseUrl: string): Promise<BaselineServer> {
  return start(dir, "pg-baseline-server.ts", { DATABASE_URL: databaseUrl });
}

async function start(
  dir: string,
  script: string,
  env: Record<string, string>,
): Promise<BaselineServer> {
  const port = await freePort();
  const child = startChild(process.execPath, ["--import", "tsx", path.resolve("bench", script)], {
    env: { ...process.env, PORT: String(port), ...env },
    logFile: path.join(dir, `${script.replace(/\.ts$/, "")}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child);
  return { url, child, stop: () => child.stop() };
}
