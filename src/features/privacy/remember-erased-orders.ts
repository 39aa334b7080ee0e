/**
 * Before a customer's rows go, their order ids are kept as keyed hashes (orders/
 * forgotten-orders.ts), in the erasure's transaction: a store sync or a file import that meets
 * one of those orders again does not bring the person back. A step of every erasure
 * (erase-customer-rows.ts), never called on its own.
 */
import type { Transaction } from "kysely";
import type { Config } from "../../config.js";
import type { Database } from "../../db/schema.js";
import { forgottenOrderKeys, recordForgottenOrders } from "../orders/forgotten-orders.js";

export async function rememberErasedOrders(
  trx: Transaction<Database>,
  config: Pick<Config, "storeSync">,
  customerId: string,
  now: number,
): Promise<void> {
  const orders = await trx
    .selectFrom("orders")
    .select(["store_id", "external_order_id"])
    .where("customer_id", "=", customerId)
    .where("external_order_id", "is not", null)
    .execute();
  const storeId = orders[0]?.store_id;
  if (storeId === undefined) return;
  const ids = orders.flatMap((o) => (o.external_order_id === null ? [] : [o.external_order_id]));
  await recordForgottenOrders(
    trx,
    forgottenOrderKeys(config.storeSync.tokenKey),
    storeId,
    ids,
    now,
  );
}
