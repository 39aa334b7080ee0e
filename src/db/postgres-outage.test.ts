/**
 * A real `velvet serve` (the program, from source) on a PostgreSQL cluster of the test's own,
 * under 100 order submissions a second over loopback HTTP, while the test terminates its
 * backends five times (pg_terminate_backend) and restarts the cluster twice (once `fast`, once
 * `immediate`, a crash). The same process must answer throughout: 200, or 503 with Retry-After
 * and the contract's body while the database is away (never a 500, never a dropped
 * connection); /readyz red while the server is down; every acknowledged order stored; one
 * charge per new customer; the outage logged once per change, not per request.
 */
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type PrivatePostgres,
  privatePostgresAvailable,
  startPrivatePostgres,
} from "../../test/support/private-postgres.js";
import { type RunningProcess, spawnVelvet } from "../../test/support/spawn-worker.js";
import { loadConfig } from "../config.js";
import { createAccount } from "../features/accounts/create-account.js";
import { UNAVAILABLE_ORDER_MESSAGE } from "../http/app.js";
import { buildDeps, closeDeps } from "../main.js";
import { openDatabase } from "./connect.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number | "network error";
  orderId: string;
  body: Record<string, unknown> | null;
  retryAfter: string | null;
}

describe.skipIf(!privatePostgresAvailable)("velvet serve when PostgreSQL goes away", () => {
  let cluster: PrivatePostgres;
  let serve: RunningProcess;
  let url = "";
  let apiKey = "";

  beforeAll(async () => {
    cluster = await startPrivatePostgres();
    const config = {
      ...loadConfig({}),
      database: { kind: "postgres" as const, url: cluster.url, poolMax: 10 },
    };
    const deps = await buildDeps({ config, log: pino({ level: "silent" }), providers: [] });
    try {
      ({ apiKey } = await createAccount(
        deps.db.kysely,
        { name: "Outage Store", ownerEmail: "owner@example.com", passwordHash: null },
        Date.now(),
      ));
    } finally {
      await closeDeps(deps);
    }
    serve = spawnVelvet(["serve"], cluster.url, {
      PORT: "0",
      LOG_LEVEL: "warn",
      // A job whose settle was lost with its connection runs again when its lease ends.
      JOB_LEASE_MS: "3000",
      PDL_API_KEY: "",
      ENRICHLAYER_API_KEY: "",
      FULLCONTACT_API_KEY: "",
    });
    const deadline = Date.now() + 30_000;
    while (url === "" && Date.now() < deadline) {
      url = /\(API: POST (http:\/\/[^ ]+)\/api\/v1\/orders\)/.exec(serve.stderr())?.[1] ?? "";
      if (serve.child.exitCode !== null) throw new Error(`serve exited: ${serve.stderr()}`);
      await sleep(50);
    }
    if (url === "") throw new Error(`serve did not start: ${serve.stderr()}`);
  }, 60_000);

  afterAll(async () => {
    if (serve?.child.exitCode === null) {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
    await cluster?.destroy();
  });

  it("keeps answering through 5 terminated backends and 2 restarts, losing nothing acknowledged", async () => {
    const pid = serve.child.pid;
    const answers: Answer[] = [];
    const inFlight = new Set<Promise<void>>();
    let n = 0;
    const submit = () => {
      const orderId = `ord-${++n}`;
      const body = JSON.stringify({
        email: `customer-${n}@example.com`,
        firstName: "Jane",
        lastName: "Doe",
        order: { id: orderId, total: "12.50" },
      });
      const done = fetch(`${url}/api/v1/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body,
        signal: AbortSignal.timeout(15_000),
      })
        .then(async (res) => {
          answers.push({
            status: res.status,
            orderId,
            body: (await res.json()) as Record<string, unknown>,
            retryAfter: res.headers.get("retry-after"),
          });
        })
        .catch(() => {
          answers.push({ status: "network error", orderId, body: null, retryAfter: null });
        });
      inFlight.add(done);
      void done.finally(() => inFlight.delete(done));
    };
    // 100 submissions a second, each a new customer (a new charge and enrichment job).
    const load = setInterval(submit, 10);
    const readyWhileDown: number[] = [];
    let terminated = 0;
    const down = async (mode: "fast" | "immediate") => {
      await cluster.stop(mode);
      await sleep(500);
      readyWhileDown.push((await fetch(`${url}/readyz`)).status);
      await sleep(500);
      await cluster.start();
    };
    try {
      await sleep(1000);
      terminated += await cluster.terminateBackends();
      await sleep(700);
      terminated += await cluster.terminateBackends();
      await sleep(700);
      await down("fast");
      await sleep(1500);
      terminated += await cluster.terminateBackends();
      await sleep(700);
      await down("immediate");
      await sleep(1500);
      terminated += await cluster.terminateBackends();
      await sleep(700);
      terminated += await cluster.terminateBackends();
      await sleep(1500);
    } finally {
      clearInterval(load);
    }
    await Promise.all([...inFlight]);

    // The same process, still serving.
    expect(serve.child.exitCode).toBeNull();
    expect(serve.child.pid).toBe(pid);
    expect(serve.stderr() + serve.stdout()).not.toMatch(/Unhandled 'error' event|uncaught/i);
    expect(terminated).toBeGreaterThan(0);
    let ready = 0;
    for (let i = 0; i < 50 && ready !== 200; i++) {
      ready = (await fetch(`${url}/readyz`)).status;
      if (ready !== 200) await sleep(200);
    }
    expect(ready).toBe(200);
    submit();
    await Promise.all([...inFlight]);
    expect(answers.at(-1)?.status).toBe(200);

    // Only 200 and 503; every 503 says when to come back, in the contract's body.
    const statuses = new Map<Answer["status"], number>();
    for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
    expect([...statuses.keys()].sort()).toEqual([200, 503]);
    const unavailable = answers.filter((a) => a.status === 503);
    for (const a of unavailable) {
      expect(a.retryAfter).toBe("5");
      expect(a.body).toEqual({ error: "Service Unavailable", message: UNAVAILABLE_ORDER_MESSAGE });
    }
    expect(readyWhileDown).toEqual([503, 503]);

    // Every acknowledged order is stored; one charge per customer, none doubled.
    const acknowledged = answers.filter((a) => a.status === 200).map((a) => a.orderId);
    expect(acknowledged.length).toBeGreaterThan(answers.length / 2);
    const db = openDatabase({ kind: "postgres", url: cluster.url, poolMax: 2 });
    try {
      const stored = await db.kysely.selectFrom("orders").select("external_order_id").execute();
      const storedIds = new Set(stored.map((o) => o.external_order_id));
      expect(acknowledged.filter((id) => !storedIds.has(id))).toEqual([]);
      const customers = await db.kysely
        .selectFrom("customers")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      const charges = await db.kysely
        .selectFrom("usage_charges")
        .select((eb) => [
          eb.fn.countAll<number>().as("n"),
          eb.fn.count<number>("customer_id").distinct().as("customers"),
        ])
        .executeTakeFirstOrThrow();
      expect(Number(charges.n)).toBe(Number(customers.n));
      expect(Number(charges.customers)).toBe(Number(charges.n));
      // The worker in the same process went on too: every stored customer gets enriched (jobs
      // whose outcome was lost with a connection once their lease has ended).
      const pending = () =>
        db.kysely
          .selectFrom("customers")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .where("enrichment_status", "not in", ["enriched", "failed"])
          .executeTakeFirstOrThrow();
      for (let i = 0; i < 100 && Number((await pending()).n) > 0; i++) await sleep(200);
      expect(Number((await pending()).n)).toBe(0);
    } finally {
      await db.close();
    }

    // The outage is logged when it starts, not once per refused request.
    const outageLines = serve.stdout().match(/database unavailable: writes fail/g) ?? [];
    expect(outageLines.length).toBeGreaterThan(0);
    expect(outageLines.length).toBeLessThanOrEqual(7);
    expect(unavailable.length).toBeGreaterThan(outageLines.length);
  }, 60_000);
});
