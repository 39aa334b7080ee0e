/**
 * PgBouncer in front of a phase's database, in transaction mode, for the pooled runs of the
 * `orders-pg` phase: the way PostgreSQL deployments go past `max_connections`. PGBOUNCER
 * names the binary (default /usr/sbin/pgbouncer, Debian 12's 1.18); null when it is not there.
 *
 * PgBouncer refuses to run as root ("PgBouncer should not run as root", pgbouncer(1)): as root
 * it is started as the `postgres` user with runuser, its config, pid file and log in a
 * temporary directory that user owns. `auth_type = any` with `user=` in [databases] logs every
 * client in as that user (pgbouncer.ini(5), "auth_type"); the phase's PostgreSQL trusts it.
 * No `ignore_startup_parameters` beyond `extra_float_digits`: a client that sends `options` is
 * refused, as a stock PgBouncer refuses it.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort, type StartedChild, startChild, tail } from "./children.js";

const BINARY = process.env.PGBOUNCER ?? "/usr/sbin/pgbouncer";
const RUN_AS = "postgres";

export interface PgBouncer {
  /** The phase's database, through PgBouncer. */
  url: string;
  /** PgBouncer's own process (for its CPU), not runuser's. */
  pid: number;
  version: string;
  stop(): Promise<void>;
}

/** `databaseUrl`'s database behind a transaction-mode PgBouncer; null without the binary. */
export async function startPgBouncer(options: {
  databaseUrl: string;
  /** Server connections per database/user pair (`default_pool_size`). */
  poolSize: number;
}): Promise<PgBouncer | null> {
  if (!fs.existsSync(BINARY)) return null;
  const target = new URL(options.databaseUrl);
  const database = target.pathname.slice(1);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-bench-pgbouncer-"));
  const port = await freePort();
  const ini = path.join(dir, "pgbouncer.ini");
  const pidFile = path.join(dir, "pgbouncer.pid");
  fs.writeFileSync(
    ini,
    [
      "[databases]",
      `${database} = host=${target.hostname} port=${target.port || 5432} dbname=${database} user=${decodeURIComponent(target.username) || RUN_AS}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = any",
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize}`,
      "max_client_conn = 500",
      "ignore_startup_parameters = extra_float_digits",
      `pidfile = ${pidFile}`,
      `logfile = ${path.join(dir, "pgbouncer.log")}`,
      "",
    ].join("\n"),
  );
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync("id", ["-u", RUN_AS], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", RUN_AS], { encoding: "utf8" }).trim());
    for (const file of [dir, ini]) fs.chownSync(file, uid, gid);
  }
  const version = execFileSync(BINARY, ["--version"], { encoding: "utf8" }).split("\n")[0] ?? "";
  const child = startChild(
    asRoot ? "runuser" : BINARY,
    asRoot ? ["-u", RUN_AS, "--", BINARY, ini] : [ini],
    { env: process.env, logFile: path.join(dir, "stdout.log") },
  );
  const url = new URL(options.databaseUrl);
  url.port = String(port);
  url.hostname = "127.0.0.1";
  let pid: number;
  try {
    pid = await waitUntilServing(url.toString(), pidFile, child);
  } catch (error) {
    await child.stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}; PgBouncer's log:\n${tail(path.join(dir, "pgbouncer.log"))}`,
    );
  }
  // The run's last resort kills runuser with SIGKILL, which PgBouncer would outlive.
  const killOnExit = () => signal(pid, "SIGTERM");
  process.on("exit", killOnExit);
  return {
    url: url.toString(),
    pid,
    version,
    stop: async () => {
      process.off("exit", killOnExit);
      signal(pid, "SIGTERM"); // immediate shutdown (pgbouncer(1), "Signals")
      await child.stop();
      if (process.env.BENCH_KEEP !== "1") fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** Polls until a query through PgBouncer answers; its pid from the pid file. */
async function waitUntilServing(
  url: string,
  pidFile: string,
  child: StartedChild,
  timeoutMs = 10_000,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown = null;
  while (Date.now() < deadline) {
    if (child.process.exitCode !== null || child.process.signalCode !== null) break;
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.query("select 1");
      return Number(fs.readFileSync(pidFile, "utf8").trim());
    } catch (error) {
      last = error;
      await new Promise((r) => setTimeout(r, 100));
    } finally {
      await client.end().catch(() => {});
    }
  }
  throw new Error(`PgBouncer did not start (${last instanceof Error ? last.message : "exited"})`);
}
