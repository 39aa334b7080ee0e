/**
 * Helpers for tests of POST /api/v1/orders: request bodies, raw HTTP calls with any method or
 * headers, what a store holds in the database, and a database trigger that makes the `orders`
 * insert fail (fault injection after the customer, job and charge inserts).
 */
import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type { Db } from "../../src/db/connect.js";
import type { TestApp } from "./test-app.js";

export const UNAUTHORIZED = { error: "Unauthorized", message: "Invalid or missing API key" };
export const FAILED = { error: "Internal Server Error", message: "Failed to process order" };
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A fresh, valid e-mail address on a real (non-disposable) domain. */
export function uniqueEmail(tag = "c"): string {
  return `${tag}-${randomBytes(5).toString("hex")}@example.com`;
}

export function uniqueOrderId(): string {
  return `ord-${randomBytes(5).toString("hex")}`;
}

export interface OrderBody {
  email?: unknown;
  firstName?: unknown;
  lastName?: unknown;
  [field: string]: unknown;
}

export function validBody(overrides: OrderBody = {}): OrderBody {
  return { email: uniqueEmail(), firstName: "Jane", lastName: "Doe", ...overrides };
}

export interface RawRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** Any request to the app, with nothing added: the caller states every header. */
export function request(app: TestApp, req: RawRequest = {}): Promise<Response> {
  return fetch(`${app.url}${req.path ?? "/api/v1/orders"}`, {
    method: req.method ?? "POST",
    headers: req.headers ?? {},
    body: req.body,
  });
}

/** Submits and reads the answer: status, parsed body and headers. */
export async function submitJson(
  app: TestApp,
  apiKey: string | null,
  body: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await app.submit(apiKey, body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export interface StoreRows {
  customers: number;
  orders: number;
  charges: number;
  jobs: number;
}

/** How many customer, order, charge and enrichment-job rows belong to a store. */
export async function storeRows(db: Db, storeId: string): Promise<StoreRows> {
  const k = db.kysely;
  const count = async (q: Promise<{ n: number | string | bigint } | undefined>) =>
    Number((await q)?.n ?? 0);
  const customerIds = (
    await k.selectFrom("customers").select("id").where("store_id", "=", storeId).execute()
  ).map((r) => `enrich-customer:${r.id}`);
  return {
    customers: customerIds.length,
    orders: await count(
      k
        .selectFrom("orders")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("store_id", "=", storeId)
        .executeTakeFirst(),
    ),
    charges: await count(
      k
        .selectFrom("usage_charges")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("store_id", "=", storeId)
        .executeTakeFirst(),
    ),
    jobs:
      customerIds.length === 0
        ? 0
        : await count(
            k
              .selectFrom("jobs")
              .select((eb) => eb.fn.countAll().as("n"))
              .where("job_key", "in", customerIds)
              .executeTakeFirst(),
          ),
  };
}

/** Makes every insert into `orders` fail inside the database, on either engine. */
export async function injectOrderInsertFault(db: Db): Promise<void> {
  if (db.dialect === "sqlite") {
    await sql`create trigger orders_fault before insert on orders begin select raise(abort, 'injected fault'); end`.execute(
      db.kysely,
    );
    return;
  }
  await sql`create or replace function orders_fault() returns trigger language plpgsql as $$ begin raise exception 'injected fault'; end $$`.execute(
    db.kysely,
  );
  await sql`create trigger orders_fault before insert on orders for each row execute function orders_fault()`.execute(
    db.kysely,
  );
}

export async function removeOrderInsertFault(db: Db): Promise<void> {
  if (db.dialect === "sqlite") {
    await sql`drop trigger orders_fault`.execute(db.kysely);
    return;
  }
  await sql`drop trigger orders_fault on orders`.execute(db.kysely);
  await sql`drop function orders_fault()`.execute(db.kysely);
}

/**
 * Makes the database full for every write that needs new room: SQLite's real SQLITE_FULL (the
 * file may not grow past its current page count), PostgreSQL's own `disk_full` (SQLSTATE 53100)
 * raised on every order insert.
 */
export async function injectDiskFull(db: Db): Promise<void> {
  if (db.dialect === "sqlite") {
    const pages = await sql<{ page_count: number }>`pragma page_count`.execute(db.kysely);
    await sql`pragma max_page_count = ${sql.raw(String(pages.rows[0]?.page_count))}`.execute(
      db.kysely,
    );
    return;
  }
  await sql`create or replace function orders_disk_full() returns trigger language plpgsql as $$ begin raise exception 'could not extend file: No space left on device' using errcode = 'disk_full'; end $$`.execute(
    db.kysely,
  );
  await sql`create trigger orders_disk_full before insert on orders for each row execute function orders_disk_full()`.execute(
    db.kysely,
  );
}

export async function removeDiskFull(db: Db): Promise<void> {
  if (db.dialect === "sqlite") {
    await sql`pragma max_page_count = 1073741823`.execute(db.kysely);
    return;
  }
  await sql`drop trigger orders_disk_full on orders`.execute(db.kysely);
  await sql`drop function orders_disk_full()`.execute(db.kysely);
}

/** A clock the test moves by hand. */
export function manualClock(start: number): { now(): number; set(ms: number): void } {
  let current = start;
  return {
    now: () => current,
    set: (ms) => {
      current = ms;
    },
  };
}

/** POSTs each body to a running server's /api/v1/orders at once; the statuses, in order. */
export function postOrders(url: string, apiKey: string, bodies: unknown[]): Promise<number[]> {
  return Promise.all(
    bodies.map((body) =>
      fetch(`${url}/api/v1/orders`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      }).then((r) => r.status),
    ),
  );
}

/** How many of a store's customers are enriched. */
export async function enrichedCustomers(db: Db, storeId: string): Promise<number> {
  const row = await db.kysely
    .selectFrom("customers")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("store_id", "=", storeId)
    .where("enrichment_status", "=", "enriched")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
