/**
 * The database a process opens, as config.ts reads it from the environment: SQLite's file, or
 * PostgreSQL's address with how Velvet may use the connections it gets there.
 *
 * Behind a pooler in transaction mode (PgBouncer `pool_mode = transaction`, Supavisor's port
 * 6543, RDS Proxy once a session would pin), each transaction may run on a different server
 * connection, so Velvet must keep nothing on a connection between transactions: no startup
 * `options` (PgBouncer refuses them: "unsupported startup parameter"), no SET, no session
 * advisory locks, and no named prepared statements unless the pooler carries them (PgBouncer
 * 1.21 and later with `max_prepared_statements`; Supavisor; not PgBouncer 1.18 to 1.20).
 */
import path from "node:path";
import { ConfigError } from "./config-error.js";

/**
 * `session`: each Velvet connection is one PostgreSQL session for its whole life (a direct
 * connection, or a pooler in session mode). `transaction`: only a transaction is.
 */
export type PoolerMode = "session" | "transaction";

export interface PostgresTarget {
  kind: "postgres";
  url: string;
  /** Connections of the process's main pool (DATABASE_POOL_MAX). */
  poolMax: number;
  /** DATABASE_POOLER_MODE; session when absent. */
  poolerMode?: PoolerMode;
  /**
   * DATABASE_PREPARED_STATEMENTS: whether the hot statements run as named prepared statements.
   * When absent: on in session mode, off in transaction mode.
   */
  preparedStatements?: boolean;
  /**
   * DATABASE_DIRECT_URL: a connection to PostgreSQL itself, past any pooler, for what needs a
   * session (LISTEN for job wake-ups). Null or absent: none given (with a session-mode pooler,
   * or none, `url` serves).
   */
  directUrl?: string | null;
}

export type DatabaseTarget =
  /** busyTimeoutMs: how long a write waits for another process's lock (SQLITE_BUSY_TIMEOUT_MS). */
  { kind: "sqlite"; file: string; busyTimeoutMs?: number } | PostgresTarget;

/** The settings a PostgreSQL target leaves out, filled with their defaults. */
export function postgresSessionRules(target: PostgresTarget): {
  poolerMode: PoolerMode;
  preparedStatements: boolean;
} {
  const poolerMode = target.poolerMode ?? "session";
  return {
    poolerMode,
    preparedStatements: target.preparedStatements ?? poolerMode === "session",
  };
}

/**
 * A connection that can hold a session (LISTEN): DATABASE_DIRECT_URL when given, else
 * DATABASE_URL unless a transaction-mode pooler is in between (then null: poll instead).
 */
export function sessionUrl(target: PostgresTarget): string | null {
  if (target.directUrl) return target.directUrl;
  return postgresSessionRules(target).poolerMode === "session" ? target.url : null;
}

export interface PostgresSettings {
  poolerMode?: PoolerMode;
  preparedStatements?: boolean;
  directUrl?: string;
}

export function databaseTargetFromUrl(
  url: string | undefined,
  poolMax = 10,
  busyTimeoutMs?: number,
  postgres: PostgresSettings = {},
): DatabaseTarget {
  const busy = busyTimeoutMs === undefined ? {} : { busyTimeoutMs };
  const isPostgres = url !== undefined && /^postgres(ql)?:\/\//i.test(url);
  const given = Object.entries(postgres).filter(([, v]) => v !== undefined);
  if (!isPostgres && given.length > 0) {
    const names = given.map(([k]) => SETTING_NAMES[k as keyof PostgresSettings]);
    throw new ConfigError(
      `${names.join(", ")}: only for PostgreSQL, but DATABASE_URL does not name a postgres:// database`,
    );
  }
  if (isPostgres) {
    const { directUrl, ...rest } = postgres;
    if (directUrl !== undefined && !/^postgres(ql)?:\/\//i.test(directUrl)) {
      throw new ConfigError("DATABASE_DIRECT_URL: must be a postgres:// URL");
    }
    return { kind: "postgres", url, poolMax, ...rest, ...(directUrl ? { directUrl } : {}) };
  }
  if (url === undefined || url.trim() === "") {
    return { kind: "sqlite", file: path.resolve("data", "velvet.db"), ...busy };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith("file://")) {
    throw new ConfigError(
      `DATABASE_URL: unsupported scheme in "${url.split("://")[0]}://…"; use a file path or postgres://`,
    );
  }
  const file = url.startsWith("file://") ? new URL(url).pathname : url;
  return { kind: "sqlite", file: file === ":memory:" ? file : path.resolve(file), ...busy };
}

const SETTING_NAMES: Record<keyof PostgresSettings, string> = {
  poolerMode: "DATABASE_POOLER_MODE",
  preparedStatements: "DATABASE_PREPARED_STATEMENTS",
  directUrl: "DATABASE_DIRECT_URL",
};
