/**
 * Resolves a session cookie to the signed-in user, account and store, or null when the
 * session is unknown, expired (a week idle) or past its absolute lifetime (30 days). A live
 * session's expiry slides forward, written at most once an hour (with its "last seen").
 */
import type { Deps } from "../../../deps.js";
import { monthOf } from "../../billing/get-usage.js";
import type { DashboardSession } from "./dashboard-session.js";
import {
  hashSessionId,
  isWellFormedSecret,
  SESSION_ABSOLUTE_MS,
  SESSION_EXTEND_EVERY_MS,
  SESSION_IDLE_MS,
} from "./session-token.js";

export async function loadSession(
  deps: Pick<Deps, "db" | "clock">,
  rawId: string | undefined,
): Promise<DashboardSession | null> {
  if (rawId === undefined || !isWellFormedSecret(rawId)) return null;
  const now = deps.clock.now();
  const idHash = hashSessionId(rawId);
  const row = await deps.db.kysely
    .selectFrom("sessions")
    .innerJoin("users", "users.id", "sessions.user_id")
    .innerJoin("accounts", "accounts.id", "sessions.account_id")
    .innerJoin("stores", "stores.account_id", "accounts.id")
    .leftJoin("budget_months", (join) =>
      join
        .onRef("budget_months.account_id", "=", "accounts.id")
        .on("budget_months.month", "=", monthOf(now)),
    )
    .select([
      "sessions.user_id",
      "sessions.account_id",
      "sessions.csrf_token",
      "sessions.created_at",
      "sessions.expires_at",
      "users.email",
      "users.role",
      "accounts.name",
      "accounts.vip_threshold",
      "accounts.monthly_budget_usd",
      "budget_months.notified_80",
      "budget_months.notified_100",
      "stores.id as store_id",
    ])
    .where("sessions.id_hash", "=", idHash)
    // The real store: the sample store (features/demo) takes no orders but sample ones.
    .where("stores.sample", "=", 0)
    .orderBy("stores.created_at")
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const absoluteEnd = row.created_at + SESSION_ABSOLUTE_MS;
  if (row.expires_at <= now || absoluteEnd <= now) return null;

  let expiresAt = row.expires_at;
  if (now + SESSION_IDLE_MS - expiresAt >= SESSION_EXTEND_EVERY_MS) {
    expiresAt = Math.min(now + SESSION_IDLE_MS, absoluteEnd);
    await deps.db.kysely
      .updateTable("sessions")
      .set({ expires_at: expiresAt, last_seen_at: now })
      .where("id_hash", "=", idHash)
      .execute();
  }
  return {
    rawId,
    idHash,
    userId: row.user_id,
    userEmail: row.email,
    role: row.role,
    accountId: row.account_id,
    accountName: row.name,
    storeId: row.store_id,
    vipThreshold: row.vip_threshold,
    budgetNotice:
      row.monthly_budget_usd === null
        ? null
        : row.notified_100 === 1
          ? "spent"
          : row.notified_80 === 1
            ? "nearly"
            : null,
    csrfToken: row.csrf_token,
    expiresAt,
  };
}
