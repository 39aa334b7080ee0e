import { type Kysely, type RawBuilder, sql } from "kysely";

/**
 * Merchant verdicts on VIPs (features/verdicts).
 * - `vip_verdicts`: one row per customer, the latest verdict (`right` or `wrong`), where it was
 *   given (`dashboard`, `email`, `chat`, `cli`), by which user (null: a link from an alert or
 *   the command line) and when. Personal data: erased with the person, in their export.
 *   (account_id, given_at) serves the precision of an account's recent VIPs.
 * - `alerts.verdict_secret`: a random key per alert under which the verdict links in its
 *   message are signed (HMAC of alert id and verdict), so a retried message carries the same
 *   links. Null on alerts written before verdicts existed: their messages have no links.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("vip_verdicts")
    .addColumn("customer_id", "text", (c) => c.primaryKey().references("customers.id"))
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("verdict", "text", (c) => c.notNull().check(sqlIn("verdict", ["right", "wrong"])))
    .addColumn("source", "text", (c) =>
      c.notNull().check(sqlIn("source", ["dashboard", "email", "chat", "cli"])),
    )
    .addColumn("given_by", "text")
    .addColumn("given_at", "bigint", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("vip_verdicts_account_idx")
    .on("vip_verdicts")
    .columns(["account_id", "given_at"])
    .execute();
  await db.schema.alterTable("alerts").addColumn("verdict_secret", "text").execute();
}

function sqlIn(column: string, values: string[]): RawBuilder<unknown> {
  return sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;
}
