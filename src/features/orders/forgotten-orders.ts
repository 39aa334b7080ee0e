/**
 * Orders of forgotten people: when a customer is erased, each of their orders' ids is kept per
 * store as a keyed hash (HMAC-SHA256), so that a store sync pass or a file import that meets the
 * same order again does not bring the person back. A new order (a new id) from the same person
 * later makes a new customer, as it does through the API.
 *
 * The key is derived (HKDF-SHA256) from STORE_TOKEN_KEY, the server-side secret that already
 * seals store credentials: the table alone does not tell which order ids it holds, even though
 * ids are short numbers. Without STORE_TOKEN_KEY (no store can be connected; only file imports)
 * a fixed application key is used; once the key is set, both hashes are looked up, so an erasure
 * recorded before still counts. Rotating STORE_TOKEN_KEY loses the keyed hashes' meaning, as it
 * loses the stored credentials.
 */
import { createHmac, hkdfSync } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";

const FALLBACK_KEY = Buffer.from("velvet:forgotten-orders:no-store-token-key");

export interface ForgottenOrderKeys {
  /** What erasure writes. */
  primary: Buffer;
  /** What a lookup tries: the primary key and, when it is the derived one, the fallback. */
  all: Buffer[];
}

export function forgottenOrderKeys(storeTokenKey: Buffer | null): ForgottenOrderKeys {
  if (storeTokenKey === null) return { primary: FALLBACK_KEY, all: [FALLBACK_KEY] };
  const derived = Buffer.from(
    hkdfSync("sha256", storeTokenKey, Buffer.alloc(0), "velvet:forgotten-orders", 32),
  );
  return { primary: derived, all: [derived, FALLBACK_KEY] };
}

function hashOf(key: Buffer, storeId: string, orderId: string): string {
  return createHmac("sha256", key).update(`${storeId}\n${orderId}`).digest("base64url");
}

/** Records the erased orders' ids of one store, in the erasure's transaction. */
export async function recordForgottenOrders(
  trx: Transaction<Database>,
  keys: ForgottenOrderKeys,
  storeId: string,
  orderIds: string[],
  now: number,
): Promise<void> {
  const hashes = [...new Set(orderIds.map((id) => hashOf(keys.primary, storeId, id)))];
  for (let i = 0; i < hashes.length; i += 500) {
    await trx
      .insertInto("forgotten_orders")
      .values(
        hashes
          .slice(i, i + 500)
          .map((order_hash) => ({ store_id: storeId, order_hash, created_at: now })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** Which of these order ids belonged to a forgotten customer of the store. */
export async function findForgottenOrders(
  db: Kysely<Database>,
  keys: ForgottenOrderKeys,
  storeId: string,
  orderIds: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  const byHash = new Map<string, string>();
  for (const id of new Set(orderIds))
    for (const key of keys.all) byHash.set(hashOf(key, storeId, id), id);
  const hashes = [...byHash.keys()];
  for (let i = 0; i < hashes.length; i += 500) {
    const rows = await db
      .selectFrom("forgotten_orders")
      .select("order_hash")
      .where("store_id", "=", storeId)
      .where("order_hash", "in", hashes.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const id = byHash.get(r.order_hash);
      if (id !== undefined) found.add(id);
    }
  }
  return found;
}
