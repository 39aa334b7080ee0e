/**
 * Starts a floor server in its own process on a free port: bench/baseline-server.ts on a
 * fresh SQLite file, (startPgBaseline) bench/pg-baseline-server.ts on a PostgreSQL database, or
 * (startSameWritesFloor) bench/same-writes-server.ts on a SQLite file made as Velvet's is.
 */
import path from "node:path";
import { freePort, type StartedChild, startChild, waitUntilAnswering } from "./children.js";
import { createAccount } from "./velvet-process.js";

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

export interface SameWritesFloor extends BaselineServer {
  databaseFile: string;
}

/**
 * The same-writes floor's database is made as the bench makes Velvet's: `velvet account create`
 * on a fresh file applies Velvet's migrations (tables, indexes, triggers, foreign keys) and
 * writes the account, store and API key; the floor then writes that store's new customers.
 */
export async function startSameWritesFloor(dir: string): Promise<SameWritesFloor> {
  const databaseFile = path.join(dir, "same-writes.db");
  const { accountId, storeId } = await createAccount({
    ...process.env,
    DATABASE_URL: databaseFile,
  });
  const server = await start(dir, "same-writes-server.ts", {
    DATABASE_FILE: databaseFile,
    ACCOUNT_ID: accountId,
    STORE_ID: storeId,
  });
  return { ...server, databaseFile };
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
