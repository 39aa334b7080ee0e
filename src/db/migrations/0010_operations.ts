import type { Kysely } from "kysely";

/**
 * What running Velvet in production needs in the schema:
 * - `accounts.api_rate_limit_per_minute`: the account's own API rate limit per key (null: the
 *   process default API_RATE_LIMIT_PER_MINUTE; 0: no limit). Read with the key on every
 *   request (one primary-key join), so a change applies on the next request on every node.
 * - `jobs.request_id`: the X-Request-Id of the request that enqueued the job (or of the job
 *   that did), so worker log lines can be followed back to the order that caused them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable("accounts")
    .addColumn("api_rate_limit_per_minute", "integer")
    .execute();
  await db.schema.alterTable("jobs").addColumn("request_id", "text").execute();
}
