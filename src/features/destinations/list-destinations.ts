/** An account's destinations with how their deliveries stand, for the CLI and the dashboard. */
import type { Kysely } from "kysely";
import type { Database, DestinationEvent, DestinationKind } from "../../db/schema.js";
import { storedEvents } from "./destination-events.js";

export interface DestinationSummary {
  destinationId: string;
  kind: DestinationKind;
  target: string;
  events: DestinationEvent[];
  secretHint: string | null;
  createdAt: string;
  /** When its receiver's 410 Gone disabled it (nothing is sent), and that answer; else null. */
  disabledAt: string | null;
  disabledReason: string | null;
  delivered: number;
  pending: number;
  failed: number;
}

export async function listDestinations(
  db: Kysely<Database>,
  accountId: string,
): Promise<DestinationSummary[]> {
  const rows = await db
    .selectFrom("destinations")
    .select([
      "id",
      "kind",
      "target",
      "events",
      "secret_hint",
      "created_at",
      "disabled_at",
      "disabled_reason",
    ])
    .where("account_id", "=", accountId)
    .orderBy("created_at")
    .execute();
  const counts = await db
    .selectFrom("destination_deliveries")
    .select((eb) => ["destination_id", "status", eb.fn.countAll<number>().as("n")])
    .where("account_id", "=", accountId)
    .groupBy(["destination_id", "status"])
    .execute();
  const count = (id: string, status: string) =>
    Number(counts.find((c) => c.destination_id === id && c.status === status)?.n ?? 0);
  return rows.map((r) => ({
    destinationId: r.id,
    kind: r.kind,
    target: r.target,
    events: storedEvents(r.events),
    secretHint: r.secret_hint,
    createdAt: new Date(r.created_at).toISOString(),
    disabledAt: r.disabled_at === null ? null : new Date(Number(r.disabled_at)).toISOString(),
    disabledReason: r.disabled_reason,
    delivered: count(r.id, "delivered"),
    pending: count(r.id, "pending"),
    failed: count(r.id, "failed"),
  }));
}
