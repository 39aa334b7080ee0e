/**
 * PostgreSQL named prepared statements for the hot, fixed SQL texts (the prepared queries of
 * db/prepared-query.ts and the order intake's one statement). Named, a statement is parsed and
 * planned once per pooled connection; after that `pg` sends only Bind/Execute with the values.
 * Unnamed, PostgreSQL parses and plans every statement on every call (measured: docs/performance.md).
 *
 * Only texts registered here get a name, so the set of statements kept on each connection stays
 * bounded: ad-hoc queries (dashboard filters, migrations) run unnamed as before.
 */
import type pg from "pg";

const names = new Map<string, string>();

/** Registers a SQL text that runs often; the same text always gets the same name. */
export function nameStatement(sql: string): void {
  if (!names.has(sql)) names.set(sql, `velvet_${names.size + 1}`);
}

type Query = (text: unknown, values?: unknown, callback?: unknown) => unknown;

/**
 * Makes a pooled client run registered texts as named statements. Kysely calls
 * `client.query(sql, parameters)`; anything else (a config object, a cursor) passes unchanged.
 */
export function useNamedStatements(client: pg.PoolClient): void {
  const query = client.query.bind(client) as Query;
  const named: Query = (text, values, callback) => {
    const name = typeof text === "string" ? names.get(text) : undefined;
    if (name === undefined || typeof values === "function") return query(text, values, callback);
    return query({ name, text, values }, callback);
  };
  (client as unknown as { query: Query }).query = named;
}
