/**
 * The readiness write probe's rules, on both engines: at most one probe per interval (the
 * result cached in between), red at once when a request reports the database away, green again
 * as soon as a probe succeeds (the probe runs by itself while red), each change logged once.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import type { Db } from "../../db/connect.js";
import { createDatabaseHealth } from "./database-health.js";

const lost = Object.assign(new Error("Connection terminated unexpectedly"), { code: "57P01" });

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`database health on ${engine.name}`, () => {
    let testDeps: TestDeps;
    let probes = 0;
    let db: Db;
    const lines: Array<{ level: number; msg: string }> = [];
    const log = pino(
      { level: "info" },
      new Writable({
        write(chunk, _enc, done) {
          for (const line of String(chunk).split("\n").filter(Boolean))
            lines.push(JSON.parse(line));
          done();
        },
      }),
    );
    beforeAll(async () => {
      testDeps = await startTestDeps(engine);
      const real = testDeps.deps.db;
      // Counts the probe's writes.
      const kysely = new Proxy(real.kysely, {
        get(target, property, receiver) {
          if (property === "insertInto")
            return (table: "readiness_probe") => {
              if (table === "readiness_probe") probes++;
              return target.insertInto(table);
            };
          const value = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
      db = { ...real, kysely };
    });
    afterAll(() => testDeps?.close());

    it("probes at most once per interval and serves the cached result in between", async () => {
      let now = 0;
      const health = createDatabaseHealth({ db, log, now: () => now, intervalMs: 2000 });
      try {
        probes = 0;
        const answers = await Promise.all([1, 2, 3, 4, 5].map(() => health.readiness()));
        expect(answers).toEqual(Array(5).fill({ ready: true }));
        expect(probes).toBe(1);
        now = 1999;
        await health.readiness();
        expect(probes).toBe(1);
        now = 2000;
        await health.readiness();
        expect(probes).toBe(2);
      } finally {
        health.close();
      }
    });

    it("turns red at once on a reported failure, green with the next probe, logging each change once", async () => {
      const health = createDatabaseHealth({ db, log, intervalMs: 50 });
      try {
        lines.length = 0;
        probes = 0;
        health.failed(lost);
        health.failed(lost);
        expect(await health.readiness()).toMatchObject({
          ready: false,
          reason: "database_unavailable",
        });
        expect(probes).toBe(0);
        // While red the probe runs by itself; the first that succeeds makes it green.
        const deadline = Date.now() + 2000;
        while (probes === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        await new Promise((r) => setTimeout(r, 60));
        expect(await health.readiness()).toEqual({ ready: true });
        expect(lines.map((l) => l.msg)).toEqual([
          "database unavailable: writes fail; /readyz is red and the API answers 503 until a write succeeds",
          "database available again: writes succeed",
        ]);
      } finally {
        health.close();
      }
    });
  });
}
