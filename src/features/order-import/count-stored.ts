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
  let customers = 0;
  for (const part of chunks(emailsNormalized)) {
    const row = await db
      .selectFrom("customers")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("store_id", "=", storeId)
      .where("email_normalized", "in", part)
      .executeTakeFirst();
    customers += Number(row?.n ?? 0);
  }
  let orders = 0;
  for (const part of chunks(orderIds)) {
    const row = await db
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll<number | string>().as("n"))
      .where("store_id", "=", storeId)
      .where("external_order_id", "in", part)
      .executeTakeFirst();
    orders += Number(row?.n ?? 0);
  }
  return { customers, orders };
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}
