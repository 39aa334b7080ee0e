/**
 * The yardstick for the order endpoint: a bare node:http server that does the least an order
 * intake can do — read the body, JSON.parse it, make one SQLite insert (better-sqlite3, WAL,
 * synchronous=NORMAL, prepared once, rowid key: the cheapest insert there is), answer 200 JSON. No framework, no auth, no validation,
 * no transaction beyond the insert's own. Run alone in its own process:
 *   DATABASE_FILE=/tmp/x.db PORT=4000 node --import tsx bench/baseline-server.ts
 */
import http from "node:http";
import SQLite from "better-sqlite3";

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

interface Body {
  email?: string;
  firstName?: string;
  lastName?: string;
  order?: { id?: string; total?: string };
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json; charset=utf-8",
    "content-length": Buffer.byteLength(text),
  });
  res.end(text);
}

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => {
    let body: Body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Body;
    } catch {
      answer(res, 400, { error: "Bad Request", message: "Request body is not valid JSON" });
      return;
    }
    const { lastInsertRowid } = insert.run(
      String(body.email),
      String(body.firstName),
      String(body.lastName),
      body.order?.id ?? null,
      body.order?.total ?? null,
      Date.now(),
    );
    answer(res, 200, { success: true, id: Number(lastInsertRowid) });
  });
});
server.keepAliveTimeout = 72_000;

server.listen(port, "127.0.0.1", () => process.stdout.write(`baseline listening on ${port}\n`));

function shutdown(): void {
  server.close(() => {
    db.close();
    process.exit(0);
  });
  server.closeAllConnections();
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
// The benchmark holds our stdin open; when it dies (even by SIGKILL), so do we.
process.stdin.on("end", shutdown);
process.stdin.resume();
