import type { Kysely, Transaction } from "kysely";
import type { Database } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { generateApiKey, hashApiKey, lastFour } from "./key-format.js";

export interface CreatedApiKey {
  keyId: string;
  /** The full key: shown once, never stored. */
  apiKey: string;
}

export async function createApiKey(
  db: Kysely<Database> | Transaction<Database>,
  storeId: string,
  now: number,
): Promise<CreatedApiKey> {
  const apiKey = generateApiKey();
  const keyId = newId(now);
  await db
    .insertInto("api_keys")
    .values({
      id: keyId,
      store_id: storeId,
      key_hash: hashApiKey(apiKey),
      last4: lastFour(apiKey),
      created_at: now,
      revoked_at: null,
      last_used_at: null,
    })
    .execute();
  return { keyId, apiKey };
}
