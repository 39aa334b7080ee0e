/**
 * What destinations keep about a person (db/personal-data.ts): the deliveries about them (their
 * bodies hold the name and e-mail), with attempts and pending jobs. Erasing them stops any
 * delivery not yet sent; the copies already delivered are reached by the customer.forgotten
 * delivery enqueued just before (enqueue-deliveries.ts), which is not linked to the person.
 */
import type { Kysely, Transaction } from "kysely";
import { isoOrNull as iso, type PersonalDataHolder, rowsTouched } from "../../db/personal-data.js";
import type { Database } from "../../db/schema.js";
import { deliveryJobKey } from "./enqueue-deliveries.js";

async function deliveryIds(db: Kysely<Database> | Transaction<Database>, customerId: string) {
  const rows = await db
    .selectFrom("destination_deliveries")
    .select("id")
    .where("customer_id", "=", customerId)
    .execute();
  return rows.map((r) => r.id);
}

export const destinationPersonalData: PersonalDataHolder = {
  jobKeys: async (trx, customerId) => (await deliveryIds(trx, customerId)).map(deliveryJobKey),
  async erase(trx, customerId) {
    const ids = await deliveryIds(trx, customerId);
    if (ids.length === 0) return { destinationDeliveries: 0, destinationAttempts: 0 };
    const attempts = await trx
      .deleteFrom("destination_attempts")
      .where("delivery_id", "in", ids)
      .executeTakeFirst();
    const deliveries = await trx
      .deleteFrom("destination_deliveries")
      .where("id", "in", ids)
      .executeTakeFirst();
    return {
      destinationDeliveries: rowsTouched(deliveries),
      destinationAttempts: rowsTouched(attempts),
    };
  },
  async export(db, customerId) {
    const rows = await db
      .selectFrom("destination_deliveries as d")
      .innerJoin("destinations as t", "t.id", "d.destination_id")
      .select([
        "d.id",
        "d.event",
        "d.status",
        "d.created_at",
        "d.delivered_at",
        "t.kind",
        "t.target",
      ])
      .where("d.customer_id", "=", customerId)
      .orderBy("d.created_at")
      .execute();
    return {
      destinationDeliveries: rows.map((r) => ({
        deliveryId: r.id,
        event: r.event,
        destination: { kind: r.kind, target: r.target },
        status: r.status,
        createdAt: iso(r.created_at),
        deliveredAt: iso(r.delivered_at),
      })),
    };
  },
};
