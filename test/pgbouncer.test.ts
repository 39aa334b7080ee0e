/**
 * Velvet behind a real PgBouncer in transaction mode (test/support/pgbouncer.ts: Debian's 1.18,
 * which keeps no prepared statements), end to end with real processes: `velvet migrate` twice
 * at once on a new database, then two `velvet serve` nodes (HTTP and worker each) taking 2,000
 * orders at once, the workers running the jobs those orders queued, and a dashboard page.
 *
 * The other half of the leg is the `pgbouncer` engine: the test files of the code a pooler could
 * break, each also run on it (their engine lists add it): the intake's one statement
 * (orders/submission-statement.test.ts) and its batches (orders/submission-batches.test.ts),
 * store webhook deliveries (store-webhooks/receive-delivery.test.ts), job claiming
 * (jobs/claim-jobs.test.ts) and the migrations' lock (db/migrate.test.ts): the code on the
 * `indexed` connections, the leases taken with SKIP LOCKED, and the one lock that was a
 * session's. The rest of the suite's queries are plain statements and transactions, which a
 * transaction pooler passes through unchanged, so the whole suite is not run twice.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppDeps } from "../src/app-deps.js";
import { type Db, openDatabase } from "../src/db/connect.js";
import { MIGRATIONS } from "../src/db/migrate.js";
import { systemClock } from "../src/lib/clock.js";
import { PG_BASE, type TestDatabase } from "./support/databases.js";
import { waitFor } from "./support/job-deps.js";
import { pgbouncerEngine } from "./support/pgbouncer.js";
import { signInNewAccount } from "./support/sign-in.js";
import { type RunningProcess, spawnVelvet } from "./support/spawn-worker.js";

const ORDERS = 2_000;
const NEW_CUSTOMERS = 1_200;
const RETURNING_ORDERS = 600;
/** Requests in flight at once, spread over both nodes. */
const IN_FLIGHT = 32;

describe.skipIf(!pgbouncerEngine.available)(
  "two velvet serve nodes behind PgBouncer (transaction mode)",
  () => {
    let database: TestDatabase;
    let db: Db;
    const nodes: RunningProcess[] = [];
    let direct: pg.Client;

    beforeAll(async () => {
      database = await pgbouncerEngine.create();
      // Straight to PostgreSQL, for what the test checks behind PgBouncer's back.
      const u = new URL(PG_BASE);
      u.pathname = new URL(database.url).pathname;
      direct = new pg.Client({ connectionString: u.toString() });
      await direct.connect();
    });

    afterAll(async () => {
      for (const node of nodes) if (node.child.exitCode === null) node.child.kill("SIGKILL");
      await Promise.all(nodes.map((n) => n.exited));
      await db?.close();
      await direct?.end();
      await database?.drop();
    });

    const env = () => ({ ...database.env, LOG_LEVEL: "info" });

    it("migrates a new database, two `velvet migrate` at once, and leaves no lock behind", async () => {
      const runs = [spawnVelvet(["migrate", "--json"], database.url, env())];
      runs.push(spawnVelvet(["migrate", "--json"], database.url, env()));
      for (const run of runs) {
        const exit = await run.exited;
        expect(exit, run.stderr()).toEqual({ code: 0, signal: null });
      }
      const applied = await direct.query("select count(*)::int as n from kysely_migration");
      expect(applied.rows[0].n).toBe(Object.keys(MIGRATIONS).length);
      // PgBouncer still holds its server connections: a session lock left on one would show here.
      const locks = await direct.query(
        `select count(*)::int as n from pg_locks l join pg_database d on d.oid = l.database
       where l.locktype = 'advisory' and d.datname = current_database()`,
      );
      expect(locks.rows[0].n).toBe(0);
    });

    it(`takes ${ORDERS} orders at once over two nodes with no error, none lost, none twice`, async () => {
      db = openDatabase(database.target);
      for (let i = 0; i < 2; i++) {
        nodes.push(
          spawnVelvet(["serve"], database.url, {
            ...env(),
            PORT: "0",
            HOST: "127.0.0.1",
            WORKER_POLL_INTERVAL_MS: "50",
          }),
        );
      }
      const urls = await Promise.all(nodes.map(listeningUrl));
      const first = urls[0] as string;
      const deps = { db, clock: systemClock } as unknown as AppDeps;
      const merchant = await signInNewAccount({ url: first, deps });

      const bodies = orderBodies();
      const answers: Array<{ status: number; body: Record<string, unknown>; sent: OrderBody }> = [];
      let next = 0;
      const send = async (lane: number) => {
        for (let i = next++; i < bodies.length; i = next++) {
          const sent = bodies[i] as OrderBody;
          const res = await fetch(`${urls[(i + lane) % urls.length]}/api/v1/orders`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${merchant.apiKey}`,
            },
            body: JSON.stringify(sent),
          });
          answers.push({
            status: res.status,
            body: (await res.json()) as Record<string, unknown>,
            sent,
          });
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, (_, lane) => send(lane)));

      const statuses = new Map<number, number>();
      for (const a of answers) statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      const failed = answers.find((a) => a.status !== 200);
      expect(Object.fromEntries(statuses), JSON.stringify(failed?.body)).toEqual({ 200: ORDERS });
      // One customer per e-mail and one order per order id, whichever node and however often.
      const customerOf = new Map<string, Set<unknown>>();
      const orderOf = new Map<string, Set<unknown>>();
      for (const a of answers) {
        customerOf.set(
          a.sent.email,
          (customerOf.get(a.sent.email) ?? new Set()).add(a.body.customerId),
        );
        orderOf.set(
          a.sent.order.id,
          (orderOf.get(a.sent.order.id) ?? new Set()).add(a.body.orderId),
        );
      }
      expect([...customerOf.values()].every((ids) => ids.size === 1)).toBe(true);
      expect([...orderOf.values()].every((ids) => ids.size === 1)).toBe(true);
      const counts = await direct.query(`select
      (select count(*)::int from customers) as customers,
      (select count(*)::int from orders) as orders,
      (select count(*)::int from usage_charges) as charges`);
      expect(counts.rows[0]).toEqual({
        customers: NEW_CUSTOMERS,
        orders: NEW_CUSTOMERS + RETURNING_ORDERS,
        charges: NEW_CUSTOMERS,
      });

      // The nodes' workers claim and run every enrichment job the orders queued.
      const queued = async () =>
        (
          await direct.query(
            `select (select count(*)::int from jobs where task = 'enrich-customer')
             + (select count(*)::int from customers where enrichment_status = 'pending') as n`,
          )
        ).rows[0].n as number;
      await waitFor(
        "the workers to run the enrichment jobs",
        async () => (await queued()) === 0,
        90_000,
        250,
      );

      // A dashboard page, read through PgBouncer: the merchant's customers.
      const { res, html } = await merchant.browser.page("/customers");
      expect(res.status).toBe(200);
      expect(html).toContain(`of ${NEW_CUSTOMERS.toLocaleString("en-US")} customers`);

      for (const node of nodes) {
        expect(node.stdout(), "an error in a node's log").not.toMatch(/"level":(50|60)/);
        node.child.kill("SIGTERM");
      }
      for (const node of nodes) expect(await node.exited).toEqual({ code: 0, signal: null });
    }, 180_000);
  },
);

interface OrderBody {
  email: string;
  firstName: string;
  lastName: string;
  order: { id: string; total: string; currency: string };
}

/**
 * New customers, returning customers' further orders, and exact repeats of orders already sent,
 * shuffled (a returning customer's order may well arrive before its first one).
 */
function orderBodies(): OrderBody[] {
  const tag = Date.now().toString(36);
  const body = (customer: number, order: string): OrderBody => ({
    email: `pooled-${tag}-${customer}@example.com`,
    firstName: "Pat",
    lastName: `Pooled ${customer}`,
    order: { id: order, total: "42.00", currency: "USD" },
  });
  const fresh = Array.from({ length: NEW_CUSTOMERS }, (_, i) => body(i, `${tag}-first-${i}`));
  const returning = Array.from({ length: RETURNING_ORDERS }, (_, i) =>
    body((i * 7) % NEW_CUSTOMERS, `${tag}-again-${i}`),
  );
  const unique = [...fresh, ...returning];
  const repeats = Array.from({ length: ORDERS - unique.length }, (_, i) => {
    const again = unique[(i * 13) % unique.length] as OrderBody;
    return { ...again };
  });
  const all = [...unique, ...repeats];
  // Deterministic shuffle, so a failure can be run again the same way.
  let seed = 42;
  for (let i = all.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [all[i], all[j]] = [all[j] as OrderBody, all[i] as OrderBody];
  }
  return all;
}

async function listeningUrl(node: RunningProcess): Promise<string> {
  const pattern = /"url":"(http:[^"]+)"[^\n]*"msg":"velvet is listening"/;
  await waitFor(
    "a node to listen",
    () => pattern.test(node.stdout()) || node.child.exitCode !== null,
    30_000,
  );
  const url = pattern.exec(node.stdout())?.[1];
  if (url === undefined) throw new Error(`velvet serve did not start:\n${node.stderr()}`);
  return url;
}
