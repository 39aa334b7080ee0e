/**
 * /healthz and /readyz against the real app on both engines: no authentication, small JSON,
 * /readyz 503 when migrations are pending, when the database is gone and once shutdown begins,
 * and neither is written to the access log at info level.
 */
import { Writable } from "node:stream";
import { sql } from "kysely";
import { pino } from "pino";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { loadConfig } from "../../config.js";
import { buildApp } from "../../http/app.js";
import { startServer } from "../../http/server.js";
import { buildDeps, closeDeps } from "../../main.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`health checks on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    it("GET /healthz answers 200 without a key", async () => {
      const res = await fetch(`${app.url}/healthz`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(await res.json()).toEqual({ status: "ok" });
    });

    it("GET /readyz answers 200 when the database answers and is migrated", async () => {
      const res = await fetch(`${app.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: "ready" });
    });

    it("GET /readyz answers 503 while a migration is pending, and 200 once it is applied", async () => {
      const db = app.deps.db.kysely;
      const last = await sql<{ name: string; timestamp: string }>`
        select name, timestamp from kysely_migration where name = '0010_operations'`.execute(db);
      await sql`delete from kysely_migration where name = '0010_operations'`.execute(db);
      try {
        const res = await fetch(`${app.url}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ status: "not_ready", reason: "migrations_pending" });
        // Liveness does not depend on the database.
        expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      } finally {
        const row = last.rows[0];
        await sql`insert into kysely_migration (name, timestamp) values (${row?.name}, ${row?.timestamp})`.execute(
          db,
        );
      }
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
    });
  });

  describe.skipIf(!engine.available)(`readiness during shutdown on ${engine.name}`, () => {
    it("answers 503 shutting_down once the lifecycle says so, liveness still 200", async () => {
      const database = await engine.create();
      const config = { ...loadConfig({ LOG_LEVEL: "silent" }), database: database.target };
      const deps = await buildDeps({ config, log: pino({ level: "silent" }), providers: [] });
      const lifecycle = { shuttingDown: false };
      const app = await buildApp(deps, { lifecycle });
      try {
        const url = await app.listen({ port: 0, host: "127.0.0.1" });
        expect((await fetch(`${url}/readyz`)).status).toBe(200);
        lifecycle.shuttingDown = true;
        const res = await fetch(`${url}/readyz`);
        expect(res.status).toBe(503);
        expect(await res.json()).toEqual({ status: "not_ready", reason: "shutting_down" });
        expect((await fetch(`${url}/healthz`)).status).toBe(200);
      } finally {
        await app.close();
        await closeDeps(deps);
        await database.drop();
      }
    });

    it("answers 503 once shutdown has begun, and the probes stay out of the info log", async () => {
      const database = await engine.create();
      const lines: Array<Record<string, unknown>> = [];
      const sink = new Writable({
        write(chunk, _enc, done) {
          for (const line of String(chunk).split("\n").filter(Boolean))
            lines.push(JSON.parse(line));
          done();
        },
      });
      const config = { ...loadConfig({ LOG_LEVEL: "info" }), database: database.target };
      const deps = await buildDeps({ config, log: pino({ level: "info" }, sink) });
      const server = await startServer(deps, { port: 0, host: "127.0.0.1" });
      try {
        // A keep-alive connection that is open before the shutdown starts.
        const agent = new Agent({ keepAliveTimeout: 10_000 });
        const ask = (path: string) => undiciFetch(`${server.url}${path}`, { dispatcher: agent });
        expect((await ask("/readyz")).status).toBe(200);
        expect((await ask("/healthz")).status).toBe(200);
        await fetch(`${server.url}/api/v1/nope`);
        const closing = server.close();
        const during = await ask("/readyz").catch(() => null);
        // Either our 503 on the open connection or a refused connection: never a 200.
        if (during !== null) expect(during.status).toBe(503);
        await closing;
        await agent.close();
      } finally {
        await closeDeps(deps);
        await database.drop();
      }
      const requests = lines.filter((l) => l.msg === "request");
      expect(requests.map((l) => l.path)).toEqual(["/api/v1/nope"]);
      expect(requests[0]?.requestId).toEqual(expect.any(String));
    });
  });
}
