/**
 * The order endpoint's second yardstick: a bare node:http server that makes, for every request,
 * the writes Velvet makes on SQLite for a new customer with an order
 * (src/features/orders/submit-order-sqlite.ts), in the same order: the customer, its enrichment
 * job, its usage charge, the order. The same SQL (the ON CONFLICT clauses included, so the same
 * index probes), the same column values and UUIDv7 ids (src/lib/ids.ts, a fifth one for the
 * request id the job carries), in a database made by Velvet's own migrations with an account,
 * store and key made as for Velvet (bench/baseline-process.ts), on a connection with the
 * writer's pragmas and its WAL checkpoints on a thread of their own (src/db/connect.ts,
 * sqlite-checkpoints.ts: without that thread this server would copy the WAL back on its serving
 * thread, a cost Velvet does not pay). The one-insert floor (baseline-server.ts) is the least an
 * order intake can do; this one is what Velvet's data model costs with nothing of Velvet around
 * it: no framework, no API key lookup, no validation, no rate limit, no access log.
 *
 * One transaction per event-loop turn, as Velvet's group commit makes (db/sqlite-driver.ts): the
 * requests of a turn are written in one BEGIN IMMEDIATE … COMMIT (at most MAX_GROUP of them),
 * then answered. How a new customer's rows reach the disk is the data model's cost, and the
 * group's COMMIT is most of it; with a COMMIT per request this floor would measure the commits,
 * and Velvet would beat it by batching. What remains between the two is Velvet's own work.
 * Not written here, as Velvet does not write it per request either: the API key's last_used_at
 * (at most once a minute a key). Every request is taken for a new customer: a customer or order
 * that already exists fails the request (500) instead of being looked up.
 * Run alone in its own process, on a database migrated beforehand:
 *   DATABASE_FILE=/tmp/x.db ACCOUNT_ID=… STORE_ID=… PORT=4000 node --import tsx bench/same-writes-server.ts
 */
import SQLite from "better-sqlite3";
import { loadConfig } from "../src/config.js";
import { startBackgroundCheckpoints } from "../src/db/sqlite-checkpoints.js";
import { enrichmentJob } from "../src/features/enrichment/enqueue-enrichment.js";
import { customerColumns } from "../src/features/orders/customer-columns.js";
import type { OrderSubmission } from "../src/features/orders/order-request.js";
import { newId } from "../src/lib/ids.js";
import { serveJson } from "./baseline-http.js";

const file = process.env.DATABASE_FILE;
const port = Number(process.env.PORT);
const accountId = process.env.ACCOUNT_ID;
const storeId = process.env.STORE_ID;
if (!file || !accountId || !storeId || !Number.isInteger(port) || port <= 0) {
  process.stderr.write(
    "same-writes-server: DATABASE_FILE, ACCOUNT_ID, STORE_ID and PORT are required\n",
  );
  process.exit(2);
}
const store = { accountId, storeId };
// The same settings as Velvet's from the same environment: the job's attempts, the charge's price.
const config = loadConfig();

const db = new SQLite(file);
// The writer's pragmas in src/db/connect.ts, in its order; not its busy_timeout = 0 (Velvet waits
// for another process's write lock asynchronously): nothing else writes this file.
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.pragma("foreign_keys = ON");
db.pragma("temp_store = MEMORY");
db.pragma("secure_delete = ON");
const checkpoints = startBackgroundCheckpoints(db, file, ({ failing }) => {
  if (failing !== null)
    process.stderr.write(`same-writes-server: checkpoints failing: ${failing}\n`);
});

// The SQL Velvet's prepared queries compile to on SQLite (orders/order-queries.ts,
// jobs/enqueue-job.ts), parameters in the same places.
const insertCustomer = db.prepare(
  `insert into "customers" ("id", "store_id", "email", "email_normalized", "first_name", "last_name", "phone", "address_city", "address_state", "address_zipcode", "address_country", "enrichment_status", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("store_id", "email_normalized") do nothing`,
);
const upsertJob = db.prepare(
  `insert into "jobs" ("id", "job_key", "created_at", "task", "payload", "run_at", "attempts", "max_attempts", "priority", "last_error", "locked_by", "locked_until", "request_id", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) on conflict ("job_key") do update set "task" = ?, "payload" = ?, "run_at" = ?, "attempts" = ?, "max_attempts" = ?, "priority" = ?, "last_error" = ?, "locked_by" = ?, "locked_until" = ?, "request_id" = ?, "updated_at" = ? where ("jobs"."locked_until" is null or "jobs"."locked_until" < ?)`,
);
const insertCharge = db.prepare(
  `insert into "usage_charges" ("id", "account_id", "store_id", "customer_id", "unit_price_usd", "created_at") values (?, ?, ?, ?, ?, ?) on conflict ("customer_id") do nothing`,
);
const insertOrder = db.prepare(
  `insert into "orders" ("id", "store_id", "customer_id", "external_order_id", "order_number", "total", "currency", "created_at") values (?, ?, ?, ?, ?, ?, ?, ?) on conflict ("store_id", "external_order_id") do nothing`,
);

interface Body {
  email?: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  address?: { city?: string; state?: string; zipcode?: string; country?: string };
  order?: { id?: string; number?: string; total?: string; currency?: string };
}

/** The values orders/order-request.ts makes of a valid body (trimmed, currency upper case). */
function submission(body: Body): OrderSubmission {
  const text = (value: string | undefined) => value?.trim() || null;
  const { address, order } = body;
  return {
    email: String(body.email).trim(),
    firstName: String(body.firstName).trim(),
    lastName: String(body.lastName).trim(),
    phone: text(body.phone),
    address:
      address === undefined
        ? null
        : {
            city: text(address.city),
            state: text(address.state),
            zipcode: text(address.zipcode),
            country: text(address.country),
          },
    order:
      order === undefined
        ? null
        : {
            id: text(order.id),
            number: text(order.number),
            total: text(order.total),
            currency: (text(order.currency) ?? "USD").toUpperCase(),
          },
  };
}

interface Answer {
  success: true;
  customerId: string;
  enrichmentStatus: "queued";
  orderId?: string;
}

function writeNewCustomer(s: OrderSubmission, requestId: string): Answer {
  const now = Date.now();
  const c = customerColumns(store, s);
  const customerId = newId(now);
  const created = insertCustomer.run(
    customerId,
    c.store_id,
    c.email,
    c.email_normalized,
    c.first_name,
    c.last_name,
    c.phone,
    c.address_city,
    c.address_state,
    c.address_zipcode,
    c.address_country,
    "pending",
    now,
    now,
  ).changes;
  if (created !== 1) throw new Error("customer already stored");
  // The job's row as jobs/enqueue-job.ts makes it of the spec.
  const job = enrichmentJob(customerId, config.enrichment.maxAttempts, undefined, requestId);
  // The values a new row and a revived one both take, in the statement's column order.
  const fresh = [
    job.task,
    JSON.stringify(job.payload),
    now,
    0,
    job.maxAttempts,
    job.priority,
    null,
    null,
    null,
    requestId,
    now,
  ];
  upsertJob.run(newId(now), job.jobKey, now, ...fresh, ...fresh, now);
  insertCharge.run(
    newId(now),
    store.accountId,
    store.storeId,
    customerId,
    config.enrichmentPriceUsd,
    now,
  );
  const answer: Answer = { success: true, customerId, enrichmentStatus: "queued" };
  const order = s.order;
  if (order === null) return answer;
  const orderId = newId(now);
  const stored = insertOrder.run(
    orderId,
    store.storeId,
    customerId,
    order.id,
    order.number,
    order.total,
    order.currency,
    now,
  ).changes;
  if (stored !== 1) throw new Error("order already stored");
  // The keys in the order Velvet's answer has them.
  return { success: true, customerId, enrichmentStatus: "queued", orderId };
}

/** As in db/sqlite-group-commit.ts: a group commits at the end of its turn or at this many members. */
const MAX_GROUP = 100;

interface Member {
  submission: OrderSubmission;
  requestId: string;
  resolve(answer: Answer): void;
  reject(error: unknown): void;
}

let turn: Member[] = [];

const writeTurn = db.transaction((members: Member[]) =>
  members.map((m) => writeNewCustomer(m.submission, m.requestId)),
);

function commitTurn(): void {
  const members = turn;
  if (members.length === 0) return;
  turn = [];
  let answers: Answer[];
  try {
    answers = writeTurn.immediate(members);
  } catch (error) {
    for (const m of members) m.reject(error);
    return;
  }
  for (const [i, m] of members.entries()) m.resolve(answers[i] as Answer);
}

function submit(s: OrderSubmission, requestId: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // After this turn's I/O callbacks, so every request read in the turn joins the group.
    if (turn.length === 0) setImmediate(commitTurn);
    turn.push({ submission: s, requestId, resolve, reject });
    if (turn.length >= MAX_GROUP) commitTurn();
  });
}

serveJson<Body>(
  port,
  // Velvet makes the request id when the request arrives (http/request-id.ts).
  (body) => submit(submission(body), newId()),
  // As Velvet closes: the checkpoint thread first, then the connection.
  () => checkpoints.stop().finally(() => db.close()),
);
