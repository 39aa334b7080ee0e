/**
 * A full disk under SQLite, for real: the database lives on a small tmpfs the test mounts
 * (as root), and a filler file takes every free byte. Orders then answer 503 with Retry-After
 * and the contract's body (nothing written), /readyz turns red and stays red while the write
 * probe fails, the checkpoint thread's failure is logged once (not every 100 ms), and once the
 * filler is removed /readyz is green and orders are accepted again, by the same process.
 *
 * Mounting needs root (CAP_SYS_ADMIN). Without it the test provokes SQLITE_FULL instead with
 * `PRAGMA max_page_count` set to the database's current size, which fails the orders the same
 * way but not the WAL's growth (so the probe's own failure is checked only on the real disk);
 * it says so in its name.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { sql } from "kysely";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "../../app-deps.js";
import { loadConfig } from "../../config.js";
import { UNAVAILABLE_ORDER_MESSAGE } from "../../http/app.js";
import { type RunningServer, startServer } from "../../http/server.js";
import { buildDeps, closeDeps } from "../../main.js";
import { createAccount } from "../accounts/create-account.js";
import { PROBE_INTERVAL_MS } from "./database-health.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tryMountTmpfs(dir: string, size: string): boolean {
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const base = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-full-disk-"));
/** Whether this process may mount a filesystem (asked once, undone at once). */
const mounted = tryMountTmpfs(base, "1m") && unmount(base);

function unmount(dir: string): true {
  execFileSync("umount", [dir]);
  return true;
}

describe(`SQLite on a full disk (${mounted ? "a real full tmpfs" : "fallback: PRAGMA max_page_count"})`, () => {
  const file = path.join(base, "velvet.db");
  const filler = path.join(base, "filler");
  const lines: Array<Record<string, unknown>> = [];
  let deps: AppDeps;
  let server: RunningServer;
  let apiKey = "";
  let n = 0;

  const submit = async () => {
    n++;
    const res = await fetch(`${server.url}/api/v1/orders`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({
        email: `full-${n}@example.com`,
        firstName: "Jane",
        lastName: "Doe",
        order: { id: `full-${n}`, total: "10.00" },
      }),
    });
    return {
      status: res.status,
      retryAfter: res.headers.get("retry-after"),
      body: await res.json(),
    };
  };
  const ready = async () => (await fetch(`${server.url}/readyz`)).status;

  beforeAll(async () => {
    if (mounted && !tryMountTmpfs(base, "48m")) throw new Error(`cannot mount a tmpfs on ${base}`);
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const config = {
      ...loadConfig({ LOG_LEVEL: "info" }),
      database: { kind: "sqlite" as const, file },
    };
    deps = await buildDeps({
      config,
      log: pino({ level: "info" }, sink),
      providers: [],
      longRunning: true,
    });
    ({ apiKey } = await createAccount(
      deps.db.kysely,
      { name: "Full Disk Store", ownerEmail: "owner@example.com", passwordHash: null },
      Date.now(),
    ));
    server = await startServer(deps, { port: 0, host: "127.0.0.1" });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    if (deps) await closeDeps(deps);
    if (mounted) execFileSync("umount", [base]);
    fs.rmSync(base, { recursive: true, force: true });
  });

  async function fillTheDisk(): Promise<void> {
    if (!mounted) {
      const pages = await sql<{ page_count: number }>`pragma page_count`.execute(deps.db.kysely);
      await sql`pragma max_page_count = ${sql.raw(String(pages.rows[0]?.page_count))}`.execute(
        deps.db.kysely,
      );
      return;
    }
    const fd = fs.openSync(filler, "w");
    const block = Buffer.alloc(64 * 1024);
    try {
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      if ((error as { code?: string }).code !== "ENOSPC") throw error;
    } finally {
      fs.closeSync(fd);
    }
  }

  async function freeSpace(): Promise<void> {
    if (mounted) fs.rmSync(filler);
    else await sql`pragma max_page_count = 1073741823`.execute(deps.db.kysely);
  }

  it("answers 503 with Retry-After, turns /readyz red, logs once, and recovers when space is freed", async () => {
    expect((await submit()).status).toBe(200);
    expect(await ready()).toBe(200);

    await fillTheDisk();
    let answer = await submit();
    for (let i = 0; i < 5000 && answer.status === 200; i++) answer = await submit();
    expect(answer).toEqual({
      status: 503,
      retryAfter: "5",
      body: { error: "Service Unavailable", message: UNAVAILABLE_ORDER_MESSAGE },
    });
    expect(await ready()).toBe(503);
    if (mounted) {
      // Still red after the cache has expired: the write probe itself fails on the full disk.
      // (Not under the fallback: max_page_count lets the probe reuse the pages it frees, where
      // a full disk refuses the WAL the room to grow.)
      await sleep(PROBE_INTERVAL_MS + 500);
      expect(await ready()).toBe(503);
      expect((await submit()).status).toBe(503);
    }
    const failedOrder = n;

    // Logged once per change of state, not per request, probe or checkpoint pass.
    const outage = lines.filter((l) => String(l.msg).startsWith("database unavailable"));
    expect(outage).toHaveLength(1);
    const checkpoints = lines.filter((l) => l.msg === "SQLite background checkpoint failed");
    expect(checkpoints.length).toBeLessThanOrEqual(1);

    await freeSpace();
    let status = 0;
    for (let i = 0; i < 40 && status !== 200; i++) {
      status = await ready();
      if (status !== 200) await sleep(100);
    }
    expect(status).toBe(200);
    expect((await submit()).status).toBe(200);
    expect(lines.some((l) => l.msg === "database available again: writes succeed")).toBe(true);

    // The refused order wrote nothing.
    const stored = await deps.db.kysely
      .selectFrom("orders")
      .select("external_order_id")
      .where("external_order_id", "=", `full-${failedOrder}`)
      .execute();
    expect(stored).toEqual([]);
  }, 60_000);
});
