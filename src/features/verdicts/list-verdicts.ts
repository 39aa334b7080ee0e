/** The current verdict on each of some customers, with who gave it, for the dashboard's pages. */
import type { Kysely } from "kysely";
import type { Database, VerdictSource, VerdictValue } from "../../db/schema.js";

export interface VerdictView {
  verdict: VerdictValue;
  source: VerdictSource;
  givenAt: number;
  /** The dashboard user's e-mail; null from a link, the command line or a removed user. */
  givenBy: string | null;
}

export async function verdictsOf(
  db: Kysely<Database>,
  accountId: string,
  customerIds: readonly string[],
): Promise<Map<string, VerdictView>> {
  const found = new Map<string, VerdictView>();
  if (customerIds.length === 0) return found;
  const rows = await db
    .selectFrom("vip_verdicts")
    .leftJoin("users", "users.id", "vip_verdicts.given_by")
    .select([
      "vip_verdicts.customer_id",
      "vip_verdicts.verdict",
      "vip_verdicts.source",
      "vip_verdicts.given_at",
      "users.email",
    ])
    .where("vip_verdicts.account_id", "=", accountId)
    .where("vip_verdicts.customer_id", "in", [...new Set(customerIds)])
    .execute();
  for (const r of rows) {
    found.set(r.customer_id, {
      verdict: r.verdict,
      source: r.source,
      givenAt: Number(r.given_at),
      givenBy: r.email ?? null,
    });
  }
  return found;
}
