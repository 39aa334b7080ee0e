/**
 * The yardstick for the order endpoint: a bare node:http server that does the least an order
 * intake can do — read the body, JSON.parse it, make one SQLite insert (better-sqlite3, WAL,
 * synchronous=NORMAL, prepared once, rowid key: the cheapest insert there is), answer 200 JSON. No framework, no auth, no validation,
 * no transaction beyond the insert's own. Run alone in its own process:
 *   DATABASE_FILE=/tmp/x.db PORT=4000 node --import tsx bench/baseline-server.ts
 */
import SQLite from "better-sqlite3";
import { baselineRow, serveBaseline } from "./baseline-http.js";

const file = process.env.DATABASE_FILE;
const port = Number(process.env.PORT);
if (!file || !Number.isInteger(port) || port <= 0) {
  process.stderr.write("baseline-server: DATABASE_FILE and PORT are required\n");
  process.exit(2);
}

const db = new SQLite(file);
db.pragma("journal_mode = WAL");
db.pragma("synchronous = NORMAL");
db.exec(`create table if not exists orders (
  id integer primary key,
  email text not null,
  first_name text not null,
  last_name text not null,
  order_id text,
  total text,
  created_at integer not null
)`);
const insert = db.prepare(
  "insert into orders (email, first_name, last_name, order_id, total, created_at) values (?, ?, ?, ?, ?, ?)",
);

serveBaseline(
  port,
  (body) => Number(insert.run(...baselineRow(body)).lastInsertRowid),
  () => db.close(),
);
