/**
 * A PostgreSQL cluster of a test's own (initdb into a temporary directory, its own port), for
 * tests that stop, restart or terminate the backends of the server: never the shared one.
 * As root, the server runs as the `postgres` user (PostgreSQL refuses to run as root).
 *
 * `PRIVATE_POSTGRES_BIN` names the binaries' directory (default /usr/lib/postgresql/15/bin).
 * Without them a test skips, except under CI=true, where that is a failure.
 */
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";

const BIN = process.env.PRIVATE_POSTGRES_BIN ?? "/usr/lib/postgresql/15/bin";

export const privatePostgresAvailable = fs.existsSync(path.join(BIN, "initdb"));
if (!privatePostgresAvailable) {
  const message = `PostgreSQL binaries not found in ${BIN}: the tests that restart PostgreSQL cannot run.`;
  if (process.env.CI === "true") throw new Error(`${message} Under CI=true this is a failure.`);
  process.stderr.write(`\n!! WARNING: ${message} Skipping them (set PRIVATE_POSTGRES_BIN).\n\n`);
}

export interface PrivatePostgres {
  /** postgres://…/velvet on the private cluster. */
  url: string;
  /** Ends every backend connected to the `velvet` database (pg_terminate_backend). */
  terminateBackends(): Promise<number>;
  stop(mode?: "fast" | "immediate"): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and removes its directory. */
  destroy(): Promise<void>;
}

function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim());
  return { uid, gid };
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(path.join(BIN, command), args, {
      stdio: ["ignore", "ignore", "pipe"],
      ...(user ?? {}),
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on("error", reject);
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr}`)),
    );
  });
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const user = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-pg-"));
  const data = path.join(dir, "data");
  fs.mkdirSync(data, { mode: 0o700 });
  if (user !== undefined) {
    fs.chownSync(dir, user.uid, user.gid);
    fs.chownSync(data, user.uid, user.gid);
  }
  const port = await freePort();
  await run("initdb", ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "-N"], user);
  // Durability is not under test here; the socket directory is the cluster's own.
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`;
  const start = () =>
    run("pg_ctl", ["-D", data, "-o", options, "-l", path.join(dir, "log"), "-w", "start"], user);
  const stop = (mode: "fast" | "immediate" = "fast") =>
    run("pg_ctl", ["-D", data, "-m", mode, "-w", "stop"], user);
  await start();
  const base = `postgres://postgres@127.0.0.1:${port}`;
  const admin = async <T>(work: (c: pg.Client) => Promise<T>): Promise<T> => {
    const client = new pg.Client({ connectionString: `${base}/postgres` });
    client.on("error", () => {});
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end().catch(() => {});
    }
  };
  await admin((c) => c.query("create database velvet"));
  return {
    url: `${base}/velvet`,
    terminateBackends: () =>
      admin(async (c) => {
        const result = await c.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = 'velvet' and pid <> pg_backend_pid()",
        );
        return result.rowCount ?? 0;
      }),
    stop,
    start,
    destroy: async () => {
      await stop("immediate").catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
