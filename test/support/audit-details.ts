/**
 * What the audit trail holds for an account's action: each event's details, parsed, oldest
 * first (a test that checks a change was recorded, before and after).
 */
import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema.js";

export async function auditDetails(
  db: Kysely<Database>,
  accountId: string,
  action: string,
): Promise<unknown[]> {
  const rows = await db
    .selectFrom("audit_events")
    .select("details")
    .where("account_id", "=", accountId)
    .where("action", "=", action)
    .orderBy("occurred_at")
    .execute();
  return rows.map((r) => (r.details === null ? null : JSON.parse(r.details)));
}
