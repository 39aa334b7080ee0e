/**
 * The PostgreSQL yardstick for the order endpoint (issue 14): a bare node:http server that reads
 * the body, JSON.parse's it and makes one INSERT through a `pg` pool of 10 (bigserial key, one
 * B-tree, `synchronous_commit` as the server has it: on), then answers 200 JSON. No framework,
 * no auth, no validation, no transaction beyond the insert's own. Run alone in its own process:
 *   DATABASE_URL=postgres://… PORT=4000 node --import tsx bench/pg-baseline-server.ts
 */
import http from "node:http";
import pg from "pg";

const url = process.env.DATABASE_URL;
const port = Number(process.env.PORT);
if (!url || !Number.isInteger(port) || port <= 0) {
  process.stderr.write("pg-baseline-server: DATABASE_URL and PORT are required\n");
  process.exit(2);
}

const pool = new pg.Pool({ connectionString: url, max: 10 });
pool.on("error", () => {});
await pool.query(`create table if not exists floor_orders (
  id bigserial primary key,
  email text not null,
  first_name text not null,
  last_name text not null,
  order_id text,
  total text,
  created_at bigint not null
)`);
const INSERT = {
  name: "floor-insert",
  text: "insert into floor_orders (email, first_name, last_name, order_id, total, created_at) values ($1, $2, $3, $4, $5, $6) returning id",
};

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
    pool
      .query<{ id: string }>({
        ...INSERT,
        values: [
          String(body.email),
          String(body.firstName),
          String(body.lastName),
          body.order?.id ?? null,
          body.order?.total ?? null,
          Date.now(),
        ],
      })
      .then(
        (result) => answer(res, 200, { success: true, id: Number(result.rows[0]?.id) }),
        () => answer(res, 500, { error: "Internal Server Error", message: "insert failed" }),
      );
  });
});
server.keepAliveTimeout = 72_000;

server.listen(port, "127.0.0.1", () => process.stdout.write(`baseline listening on ${port}\n`));

function shutdown(): void {
  server.close(() => {
    pool.end().finally(() => process.exit(0));
  });
  server.closeAllConnections();
}
process.once("SIGTERM", shutdown);
process.once("SIGINT", shutdown);
// The benchmark holds our stdin open; when it dies (even by SIGKILL), so do we.
process.stdin.on("end", shutdown);
process.stdin.resume();
