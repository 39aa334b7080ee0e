/**
 * Store connections as an operator watches them, read at scrape time (one GROUP BY over
 * `store_connections`, a few rows per account): how many are syncing, paused or broken, and
 * how their orders arrive (webhooks `active`, `failing` or `off`: features/store-webhooks). A
 * rising count of `failing` means stores stopped reaching Velvet's public address.
 */
import type { Db } from "../../db/connect.js";

export interface StoreConnectionCount {
  platform: string;
  state: string;
  webhooks: string;
  count: number;
}

export async function readStoreConnections(db: Db): Promise<StoreConnectionCount[]> {
  const rows = await db.kysely
    .selectFrom("store_connections")
    .select(["platform", "state", "webhooks", (eb) => eb.fn.countAll().as("n")])
    .groupBy(["platform", "state", "webhooks"])
    .execute();
  return rows.map((r) => ({
    platform: r.platform,
    state: r.state,
    webhooks: r.webhooks,
    count: Number(r.n),
  }));
}
