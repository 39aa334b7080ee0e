/** A customer of this account, by id or e-mail; another account's customer is not found. */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { isUuid } from "../../lib/ids.js";
import type { CustomerLookup } from "../customers/get-customer-report.js";
import { normalizeEmail } from "../orders/email-address.js";

export async function findAccountCustomerId(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  lookup: CustomerLookup,
): Promise<string | null> {
  if ("customerId" in lookup && !isUuid(lookup.customerId)) return null;
  let query = db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .select("customers.id")
    .where("stores.account_id", "=", accountId);
  query =
    "customerId" in lookup
      ? query.where("customers.id", "=", lookup.customerId.toLowerCase())
      : query.where("customers.email_normalized", "=", normalizeEmail(lookup.email));
  // An address can be both a real customer's and a sample one's (the sample store is apart):
  // the real customer is the one meant.
  const row = await query
    .orderBy("customers.sample")
    .orderBy("customers.created_at")
    .executeTakeFirst();
  return row?.id ?? null;
}
