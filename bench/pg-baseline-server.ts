/**
 * The PostgreSQL yardstick for the order endpoint: a bare node:http server that reads
 * the body, JSON.parse's it and makes one INSERT through a `pg` pool of 10 (bigserial key, one
 * B-tree, `synchronous_commit` as the server has it: on), then answers 200 JSON. No framework,
 * no auth, no validation, no transaction beyond the insert's own. Run alone in its own process:
 *   DATABASE_URL=postgres://… PORT=4000 node --import tsx bench/pg-baseline-server.ts
 */
import pg from "pg";
import { baselineRow, serveBaseline } from "./baseline-http.js";

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

serveBaseline(
  port,
  async (body) => {
    const result = await pool.query<{ id: string }>({
      ...INSERT,
      values: baselineRow(body),
    });
    return Number(result.rows[0]?.id);
  },
  () => pool.end(),
);
