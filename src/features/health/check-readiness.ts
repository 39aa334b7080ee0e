/**
 * Whether this process should get traffic: the database answers a query and its schema has
 * every migration this build knows (a process started against a database another, newer or
 * half-migrated deployment left behind is not ready). Cheap enough to run on every probe.
 */
import { sql } from "kysely";
import { pendingMigrations } from "../../db/migrate.js";
import type { Deps } from "../../deps.js";

export type Readiness =
  | { ready: true }
  | {
      ready: false;
      reason: "shutting_down" | "database_unavailable" | "migrations_pending";
      detail?: string;
    };

export async function checkReadiness(
  deps: Pick<Deps, "db">,
  shuttingDown: boolean,
): Promise<Readiness> {
  if (shuttingDown) return { ready: false, reason: "shutting_down" };
  try {
    await sql`select 1`.execute(deps.db.kysely);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return { ready: false, reason: "database_unavailable", detail };
  }
  const pending = await pendingMigrations(deps.db.kysely).catch(() => null);
  if (pending === null)
    return { ready: false, reason: "migrations_pending", detail: "no migration table" };
  if (pending.length > 0)
    return { ready: false, reason: "migrations_pending", detail: pending.join(", ") };
  return { ready: true };
}
