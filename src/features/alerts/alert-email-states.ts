/**
 * Whether an alert address is confirmed (alert-email-confirmation.ts): read by the sender before
 * each e-mail alert, so it is kept apart from the mailing of confirmation links.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { normalizeEmail } from "../orders/email-address.js";

/** Which of `emails` are confirmed and which await confirmation. */
export async function alertEmailStates(
  db: Kysely<Database>,
  accountId: string,
  emails: string[],
): Promise<{ confirmed: string[]; awaiting: string[] }> {
  const rows = await db
    .selectFrom("alert_email_confirmations")
    .select("email_normalized")
    .where("account_id", "=", accountId)
    .execute();
  const pending = new Set(rows.map((r) => r.email_normalized));
  return {
    confirmed: emails.filter((e) => !pending.has(normalizeEmail(e))),
    awaiting: emails.filter((e) => pending.has(normalizeEmail(e))),
  };
}
