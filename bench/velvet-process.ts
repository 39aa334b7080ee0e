/**
 * `velvet serve` as a benchmark subject: a fresh SQLite file in its own temporary directory
 * (or a PostgreSQL database the caller made),
 * an account made with `velvet account create --json` against that file before the server
 * starts, then the server in its own process on a free port. Later phases (enrichment) pass
 * their own environment (worker on, provider base URLs) through `env`.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { freePort, type StartedChild, startChild, waitUntilAnswering } from "./children.js";

const run = promisify(execFile);
const VELVET = path.resolve("bin", "velvet.js");

export interface VelvetServer {
  url: string;
  apiKey: string;
  accountId: string;
  storeId: string;
  databaseFile: string;
  child: StartedChild;
  stop(): Promise<void>;
}

export interface VelvetAccount {
  accountId: string;
  storeId: string;
  apiKey: string;
}

export async function startVelvet(options: {
  dir: string;
  env: Record<string, string>;
  /** A PostgreSQL URL instead of a fresh SQLite file in `dir`. */
  databaseUrl?: string;
  /** Another node on the same database: reuse its account instead of creating one. */
  account?: VelvetAccount;
  /** Names this server's log file (several servers in one directory). */
  name?: string;
}): Promise<VelvetServer> {
  const databaseFile = options.databaseUrl ?? path.join(options.dir, "velvet.db");
  const port = await freePort();
  const env = {
    ...process.env,
    DATABASE_URL: databaseFile,
    HOST: "127.0.0.1",
    PORT: String(port),
    // The access log stays on as in production unless BENCH_LOG_LEVEL says otherwise.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "info",
    // One key sends thousands of requests a second here: a limit that is checked on every
    // request (its cost is measured) but never reached.
    API_RATE_LIMIT_PER_MINUTE: "10000000",
    ...options.env,
  };
  const { accountId, storeId, apiKey } = options.account ?? (await createAccount(env));
  const child = startChild(process.execPath, [...nodeFlags(), VELVET, "serve"], {
    env,
    logFile: path.join(options.dir, `${options.name ?? "velvet"}.log`),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilAnswering(url, child);
  return { url, accountId, storeId, apiKey, databaseFile, child, stop: () => child.stop() };
}

/** `velvet account create` on env's DATABASE_URL, which it migrates first. */
export async function createAccount(env: NodeJS.ProcessEnv): Promise<VelvetAccount> {
  const { stdout } = await run(
    process.execPath,
    [VELVET, "account", "create", "--name", "Bench Store", "--owner", "owner@bench.test", "--json"],
    { env, timeout: 30_000 },
  );
  return JSON.parse(stdout) as VelvetAccount;
}

/** BENCH_NODE_FLAGS, e.g. "--cpu-prof --cpu-prof-dir=bench/results", for profiling the server. */
function nodeFlags(): string[] {
  return (process.env.BENCH_NODE_FLAGS ?? "").split(/\s+/).filter((f) => f !== "");
}
