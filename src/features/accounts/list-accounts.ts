/**
 * Every account on this Velvet, oldest first, with what an operator needs to pick one: its id,
 * name, owner (the account's first log-in) and VIP threshold. What `velvet account list` prints.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";

export interface AccountSummary {
  accountId: string;
  name: string;
  owner: string | null;
  createdAt: string;
  vipThreshold: number;
  /** When the owner closed it (its customers erased), or null. */
  closedAt: string | null;
}

export async function listAccounts(db: Kysely<Database>): Promise<AccountSummary[]> {
  const rows = await db
    .selectFrom("accounts")
    .select((eb) => [
      "accounts.id",
      "accounts.name",
      "accounts.created_at",
      "accounts.vip_threshold",
      "accounts.closed_at",
      eb
        .selectFrom("users")
        .select("users.email")
        .whereRef("users.account_id", "=", "accounts.id")
        .orderBy("users.created_at")
        .orderBy("users.id")
        .limit(1)
        .as("owner"),
    ])
    .orderBy("accounts.created_at")
    .orderBy("accounts.id")
    .execute();
  return rows.map((r) => ({
    accountId: r.id,
    name: r.name,
    owner: r.owner ?? null,
    createdAt: new Date(Number(r.created_at)).toISOString(),
    vipThreshold: Number(r.vip_threshold),
    closedAt: r.closed_at === null ? null : new Date(Number(r.closed_at)).toISOString(),
  }));
}
