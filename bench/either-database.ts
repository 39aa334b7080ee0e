/**
 * Plain SQL from the benchmark process on Velvet's database, whichever engine it is: a SQLite
 * file (better-sqlite3, read-only unless asked, safe beside the running server in WAL mode) or a
 * PostgreSQL URL (one `pg` client). Statements are written with `?` placeholders, numbered for
 * PostgreSQL; counts and epoch-ms columns (bigint there) come back as numbers.
 */
import SQLite from "better-sqlite3";
import pg from "pg";

export interface EitherDatabase {
  engine: "sqlite" | "postgres";
  /** Rows with every non-null value that reads as a number turned into one. */
  all(sql: string, params?: unknown[]): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

/** `target` is a SQLite file path or a postgres:// URL, as DATABASE_URL is. */
export async function openEitherDatabase(
  target: string,
  options: { write?: boolean } = {},
): Promise<EitherDatabase> {
  if (/^postgres(ql)?:\/\//.test(target)) {
    const client = new pg.Client({ connectionString: target });
    await client.connect();
    return {
      engine: "postgres",
      all: async (sql, params = []) => {
        let n = 0;
        const numbered = sql.replace(/\?/g, () => `$${++n}`);
        const { rows } = await client.query(numbered, params);
        return rows.map(numbersOf);
      },
      close: () => client.end(),
    };
  }
  const db = new SQLite(target, { readonly: options.write !== true, fileMustExist: true });
  return {
    engine: "sqlite",
    all: async (sql, params = []) => {
      const statement = db.prepare(sql);
      if (!statement.reader) {
        statement.run(...params);
        return [];
      }
      return (statement.all(...params) as Array<Record<string, unknown>>).map(numbersOf);
    },
    close: async () => {
      db.close();
    },
  };
}

/** PostgreSQL gives count(*) and bigint columns as strings. */
function numbersOf(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v;
  }
  return out;
}
