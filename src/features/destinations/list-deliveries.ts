/** A destination's latest deliveries with their attempts, for the dashboard's log. */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export const DELIVERIES_SHOWN = 50;

export async function listDeliveries(
  db: Kysely<Database>,
  accountId: string,
  destinationId: string,
) {
  const deliveries = await db
    .selectFrom("destination_deliveries")
    .select([
      "id",
      "event",
      "status",
      "attempts",
      "last_error",
      "historical",
      "created_at",
      "delivered_at",
      "body",
    ])
    .where("account_id", "=", accountId)
    .where("destination_id", "=", destinationId)
    .orderBy("created_at", "desc")
    .limit(DELIVERIES_SHOWN)
    .execute();
  const ids = deliveries.map((d) => d.id);
  const attempts =
    ids.length === 0
      ? []
      : await db
          .selectFrom("destination_attempts")
          .selectAll()
          .where("delivery_id", "in", ids)
          .orderBy("attempted_at")
          .execute();
  return deliveries.map(({ body, ...d }) => ({
    ...d,
    resendable: body !== null,
    attemptLog: attempts.filter((a) => a.delivery_id === d.id),
  }));
}

export type DeliveryLogEntry = Awaited<ReturnType<typeof listDeliveries>>[number];
