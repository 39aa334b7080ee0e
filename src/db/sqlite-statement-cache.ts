/**
 * A SQLite connection's prepared statements, cached by their SQL (Kysely's own driver prepares
 * every query anew), and one statement run into Kysely's QueryResult: rows for a statement that
 * returns data, the changes and last row id for one that does not. The group-commit driver
 * (sqlite-driver.ts) keeps one cache per connection; prepared queries and synchronous
 * transactions run their statements through it.
 */
import type SQLite from "better-sqlite3";
import type { QueryResult } from "kysely";

const MAX_CACHED_STATEMENTS = 500;

export class StatementCache {
  readonly #statements = new Map<string, SQLite.Statement>();
  constructor(readonly db: SQLite.Database) {}

  get(sql: string): SQLite.Statement {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      if (this.#statements.size >= MAX_CACHED_STATEMENTS) this.#statements.clear();
      statement = this.db.prepare(sql);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}

export function runStatement(
  statement: SQLite.Statement,
  parameters: readonly unknown[],
): QueryResult<never> {
  if (statement.reader) return { rows: statement.all(parameters) as never[] };
  const { changes, lastInsertRowid } = statement.run(parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
