/** The dry run's questions to the database: which of these customers and orders exist. */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

/** Keeps every IN list well under PostgreSQL's and SQLite's bound-parameter limits. */
const CHUNK = 500;

export async function countStored(
  db: Kysely<Database>,
  storeId: string,
  emailsNormalized: string[],
  orderIds: string[],
): Promise<{ customers: number; orders: number }> {
  return {
    customers: await countIn(db, "customers", "email_normalized", storeId, emailsNormalized),
    orders: await countIn(db, "orders", "external_order_id", storeId, orderIds),
  };
}

async function countIn(
  db: Kysely<Database>,
  table: "customers" | "orders",
  column: "email_normalized" | "external_order_id",
  storeId: string,
  values: string[],
): Promise<number> {
  let found = 0;
  for (let i = 0; i < values.length; i += CHUNK) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("store_id", "=", storeId)
      .where(column, "in", values.slice(i, i + CHUNK))
      .executeTakeFirst();
    found += Number(row?.n ?? 0);
  }
  return found;
}
