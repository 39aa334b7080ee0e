import type { Kysely } from "kysely";

/**
 * A destination the receiver turned away (features/destinations).
 * - `destinations.disabled_at`: when Velvet stopped sending there, because its receiver answered
 *   410 Gone (Standard Webhooks: the endpoint no longer wants these events); null while enabled.
 *   Events for a disabled destination are recorded as failed deliveries and not sent, until the
 *   merchant enables it again (dashboard or `velvet destination enable`).
 * - `destinations.disabled_reason`: what the receiver answered, shown beside the destination.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("destinations").addColumn("disabled_at", "bigint").execute();
  await db.schema.alterTable("destinations").addColumn("disabled_reason", "text").execute();
}
