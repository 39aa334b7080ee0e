/**
 * A real PgBouncer in transaction mode in front of the test PostgreSQL (PG_BASE), and the
 * `pgbouncer` engine built on it: a fresh database made directly on PostgreSQL, reached through
 * PgBouncer, with Velvet told so (DATABASE_POOLER_MODE=transaction, so its statements are
 * unnamed: PgBouncer 1.18 keeps no prepared statements).
 *
 * PgBouncer refuses to run as root, so under root it runs as the `postgres` user (`runuser`),
 * its config, log, pid file and socket in a temporary directory that user can write. Clients
 * are not authenticated (`auth_type = any`); PgBouncer logs in to PostgreSQL as PG_BASE's user.
 * When PgBouncer (or PostgreSQL) is missing the leg is skipped with a loud warning, except under
 * CI=true, where that is a failure (as PostgreSQL is in databases.ts).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import {
  createPgDatabase,
  type Engine,
  PG_BASE,
  postgresEngine,
  type TestDatabase,
} from "./databases.js";
import { migratedTemplates, prepareTestDatabase } from "./template-databases.js";

const BINARY = process.env.PGBOUNCER ?? "/usr/sbin/pgbouncer";

export const pgbouncerAvailable = postgresEngine.available && fs.existsSync(BINARY);

/** What the installed PgBouncer says it is ("PgBouncer 1.18.0"), for reports. */
export function pgbouncerVersion(): string {
  return execFileSync(BINARY, ["--version"], { encoding: "utf8" }).split("\n")[0] ?? "";
}
if (postgresEngine.available && !pgbouncerAvailable) {
  const message = `PgBouncer is not installed at ${BINARY}: the tests through a pooler cannot run.`;
  if (process.env.CI === "true") throw new Error(`${message} Under CI=true this is a failure.`);
  process.stderr.write(
    `\n${"!".repeat(80)}\n!! WARNING: ${message}\n!! Skipping them. Install pgbouncer or set PGBOUNCER.\n${"!".repeat(80)}\n\n`,
  );
}

export interface PgBouncer {
  port: number;
  /** The address of `database` through PgBouncer. */
  url(database: string): string;
  /** What PgBouncer wrote to its log (for a failing test's message). */
  log(): string;
  /** PgBouncer's own process id (under root, not runuser's), once it has written it. */
  pid(): number | null;
  close(): Promise<void>;
}

export interface PgBouncerOptions {
  /** Server connections per database (PgBouncer's default_pool_size). */
  poolSize?: number;
  /** Client connections in all (max_client_conn). */
  maxClients?: number;
  /** The PostgreSQL server behind it, as a URL whose user PgBouncer logs in as (PG_BASE). */
  server?: string;
}

export async function startPgBouncer(options: PgBouncerOptions = {}): Promise<PgBouncer> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-pgbouncer-"));
  // The postgres user writes its log, pid file and socket here.
  fs.chmodSync(dir, 0o777);
  const port = await freePort();
  const server = new URL(options.server ?? PG_BASE);
  const login = [
    `host=${server.hostname}`,
    `port=${server.port || "5432"}`,
    `user=${decodeURIComponent(server.username || "postgres")}`,
    ...(server.password ? [`password=${decodeURIComponent(server.password)}`] : []),
  ].join(" ");
  const config = path.join(dir, "pgbouncer.ini");
  const logFile = path.join(dir, "pgbouncer.log");
  fs.writeFileSync(
    config,
    `[databases]
* = ${login}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir = ${dir}
pidfile = ${path.join(dir, "pgbouncer.pid")}
logfile = ${logFile}
auth_type = any
pool_mode = transaction
default_pool_size = ${options.poolSize ?? 20}
max_client_conn = ${options.maxClients ?? 400}
`,
    { mode: 0o644 },
  );
  const asRoot = process.getuid?.() === 0;
  const child = asRoot
    ? spawn("runuser", ["-u", "postgres", "--", BINARY, config], { stdio: "ignore" })
    : spawn(BINARY, [config], { stdio: "ignore" });
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const log = () => (fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8") : "");
  const url = (database: string) => {
    const u = new URL(options.server ?? PG_BASE);
    u.port = String(port);
    u.hostname = "127.0.0.1";
    u.pathname = `/${database}`;
    return u.toString();
  };
  try {
    await answering(url(server.pathname.slice(1) || "postgres"), child);
  } catch (error) {
    await stop(child, dir, exited);
    throw new Error(`PgBouncer did not start: ${(error as Error).message}\n${log()}`);
  }
  // A test process that ends without close() (a crash, a timeout) takes PgBouncer with it.
  const orphaned = () => {
    const pid = pidOf(dir);
    try {
      if (pid !== null) process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  };
  process.once("exit", orphaned);
  let closed: Promise<void> | null = null;
  return {
    port,
    url,
    log,
    pid: () => pidOf(dir),
    close: () => {
      process.off("exit", orphaned);
      closed ??= stop(child, dir, exited);
      return closed;
    },
  };
}

/** Until a query through PgBouncer answers (it listens within milliseconds of starting). */
async function answering(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`it exited with ${child.exitCode}`);
    const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
    try {
      await client.connect();
      await client.query("select 1");
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 50));
    } finally {
      await client.end().catch(() => {});
    }
  }
}

/** SIGTERM (PgBouncer's immediate shutdown) to PgBouncer itself, which runuser may not pass on. */
function pidOf(dir: string): number | null {
  const pidFile = path.join(dir, "pgbouncer.pid");
  const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, "utf8").trim()) : NaN;
  return Number.isInteger(pid) && pid > 0 ? pid : null;
}

async function stop(child: ChildProcess, dir: string, exited: Promise<void>): Promise<void> {
  const pid = pidOf(dir);
  if (pid !== null) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // Already gone.
    }
  }
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  fs.rmSync(dir, { recursive: true, force: true });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** What a spawned `velvet` needs besides DATABASE_URL to work through this PgBouncer. */
export const POOLER_ENV = { DATABASE_POOLER_MODE: "transaction" } as const;

/**
 * The `pgbouncer` engine: one PgBouncer for the test file, started by the first database and
 * stopped when the last database it made is dropped.
 */
let shared: Promise<PgBouncer> | null = null;
let open = 0;

export const pgbouncerEngine: Engine = {
  name: "pgbouncer",
  dialect: "postgres",
  available: pgbouncerAvailable,
  create: () => throughPgBouncer(),
  createMigrated: async () => {
    const template = migratedTemplates()?.postgresDatabase ?? null;
    const database = await throughPgBouncer(template ?? undefined);
    if (template === null) await prepareTestDatabase(database.target);
    return database;
  },
};

/** A new database on PostgreSQL (empty or a copy of `template`), reached through PgBouncer. */
async function throughPgBouncer(template?: string): Promise<TestDatabase> {
  const database = await createPgDatabase({ template });
  const { name } = database;
  shared ??= startPgBouncer();
  open++;
  const bouncer = await shared;
  const url = bouncer.url(name);
  return {
    target: { kind: "postgres", url, poolMax: 10, poolerMode: "transaction" },
    url,
    env: { ...POOLER_ENV },
    drop: async () => {
      await database.drop();
      if (--open === 0) {
        const closing = shared;
        shared = null;
        await (await closing)?.close();
      }
    },
  };
}
