/**
 * The account's sample store: where the generated history lives, apart from the real store.
 * A store's orders, its customers (unique per store and e-mail) and its API keys are its own,
 * so sample orders never enter a real order's store comparison or a real customer's history,
 * a real order for a sample address makes a real customer in the real store, and no API key
 * (each belongs to the real store) can write here. Made the first time sample data is added,
 * at most one per account (a partial unique index, migration 0022); removing the sample data
 * empties it.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { StoreRef } from "../../db/store-ref.js";
import { newId } from "../../lib/ids.js";

export const SAMPLE_STORE_NAME = "Sample orders";

/** The account's sample store, made now if it has none (racing callers get the same one). */
export async function sampleStoreOf(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<StoreRef> {
  const existing = await findSampleStore(db, accountId);
  if (existing !== null) return existing;
  await db
    .insertInto("stores")
    .values({
      id: newId(now),
      account_id: accountId,
      name: SAMPLE_STORE_NAME,
      created_at: now,
      sample: 1,
    })
    // The only other unique key is the new id: a conflict is a racing caller's sample store.
    .onConflict((oc) => oc.doNothing())
    .execute();
  const made = await findSampleStore(db, accountId);
  if (made === null) throw new Error("the sample store is missing after its insert");
  return made;
}

/** The account's sample store, or null when sample data was never added. */
export async function findSampleStore(
  db: Kysely<Database>,
  accountId: string,
): Promise<StoreRef | null> {
  const row = await db
    .selectFrom("stores")
    .select("id")
    .where("account_id", "=", accountId)
    .where("sample", "=", 1)
    .executeTakeFirst();
  return row === undefined ? null : { accountId, storeId: row.id };
}
