/**
 * Starts the real application on loopback against a fresh database of the given engine:
 * real HTTP, real migrations, real queries. One per test file (or per test where isolation
 * matters); `close()` stops the server and drops the database.
 */
import { type Logger, pino } from "pino";
import type { AppDeps } from "../../src/app-deps.js";
import { type Config, loadConfig } from "../../src/config.js";
import { createAccount } from "../../src/features/accounts/create-account.js";
import type { AlertDelivery } from "../../src/features/alerts/alert-deps.js";
import { startServer } from "../../src/http/server.js";
import { createWorker } from "../../src/jobs/worker.js";
import type { Clock } from "../../src/lib/clock.js";
import { buildDeps, closeDeps } from "../../src/main.js";
import { allTasks } from "../../src/tasks.js";
import type { Engine, TestDatabase } from "./databases.js";

export interface TestApp {
  url: string;
  deps: AppDeps;
  database: TestDatabase;
  /** POST /api/v1/orders with the given key and body (object → JSON). */
  submit(apiKey: string | null, body: unknown, init?: RequestInit): Promise<Response>;
  createAccount(props?: { name?: string; vipThreshold?: number }): Promise<TestAccount>;
  close(): Promise<void>;
}

export interface TestAccount {
  accountId: string;
  storeId: string;
  keyId: string;
  apiKey: string;
}

export interface StartOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** Reuse an existing database (e.g. a second app instance on the same PostgreSQL). */
  database?: TestDatabase;
  /** Run the job worker in the app's process too, as `velvet serve` does (default: off). */
  worker?: boolean;
  /** Replace the alert senders (e.g. without the one-per-second pacing). */
  alerts?: AlertDelivery;
  /** The process log (default: silent). */
  log?: Logger;
  /**
   * PUBLIC_BASE_URL is the server's own loopback address once it listens (the port is the
   * system's choice), as `velvet serve` behind that address would have it: stores on loopback
   * deliver their webhooks there.
   */
  publicUrl?: boolean;
}

export async function startTestApp(engine: Engine, options: StartOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await engine.createMigrated());
  const ownsDatabase = options.database === undefined;
  const loaded = loadConfig({ LOG_LEVEL: "silent", ...options.env });
  const config: Config = {
    ...loaded,
    database: withSettingsOf(loaded.database, database.target, poolMaxOf(options.env)),
  };
  const deps = await buildDeps({
    config,
    log: options.log ?? pino({ level: "silent" }),
    clock: options.clock,
    alerts: options.alerts,
  });
  const server = await startServer(deps, { port: 0, host: "127.0.0.1" });
  if (options.publicUrl)
    Object.assign(config, { publicBaseUrl: server.url, publicBaseUrlSet: true });
  const worker = options.worker ? createWorker(deps, allTasks(deps)) : null;
  worker?.start();
  let accounts = 0;
  return {
    url: server.url,
    deps,
    database,
    submit: (apiKey, body, init = {}) =>
      fetch(`${server.url}/api/v1/orders`, {
        method: "POST",
        ...init,
        headers: {
          "content-type": "application/json",
          ...(apiKey === null ? {} : { authorization: `Bearer ${apiKey}` }),
          ...(init.headers as Record<string, string> | undefined),
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    createAccount: async (props = {}) => {
      accounts++;
      const created = await createAccount(
        deps.db.kysely,
        {
          name: props.name ?? `Store ${accounts}`,
          ownerEmail: `owner${accounts}-${Date.now()}@example.com`,
          passwordHash: null,
          vipThreshold: props.vipThreshold,
        },
        deps.clock.now(),
      );
      return {
        accountId: created.accountId,
        storeId: created.storeId,
        keyId: created.keyId,
        apiKey: created.apiKey,
      };
    },
    close: async () => {
      await Promise.all([server.close(), worker?.stop()]);
      await closeDeps(deps);
      if (ownsDatabase) await database.drop();
    },
  };
}

/** The test's database, with the engine settings the environment gave (SQLITE_BUSY_TIMEOUT_MS). */
function poolMaxOf(env: Record<string, string> | undefined): number | undefined {
  const raw = env?.DATABASE_POOL_MAX;
  return raw === undefined ? undefined : Number(raw);
}

function withSettingsOf(
  loaded: Config["database"],
  target: Config["database"],
  poolMax: number | undefined,
): Config["database"] {
  if (loaded.kind === "sqlite" && target.kind === "sqlite" && loaded.busyTimeoutMs !== undefined)
    return { ...target, busyTimeoutMs: loaded.busyTimeoutMs };
  // DATABASE_POOL_MAX in a test's env sizes the shared pool of its PostgreSQL database.
  if (target.kind === "postgres" && poolMax !== undefined) return { ...target, poolMax };
  return target;
}
