/**
 * One acquisition of the group-commit driver (sqlite-driver.ts), as Kysely sees a connection:
 * whether it holds the writer and is in a transaction, its queries handed to the driver, and
 * streamed queries run on the writer. The handle reaches the driver only through
 * HandleDriver, the three members it uses, so that this file does not import the driver's.
 */
import type { CompiledQuery, DatabaseConnection, QueryResult } from "kysely";
import type { StatementCache } from "./sqlite-statement-cache.js";

/** What a connection handle calls on the driver that made it. */
export interface HandleDriver {
  readonly writer: StatementCache;
  execute(handle: ConnectionHandle, query: CompiledQuery): Promise<QueryResult<unknown>>;
  writerOutsideTransaction(handle: ConnectionHandle): Promise<void>;
}

/** One acquisition of the driver; pooled, because Kysely remembers every connection object. */
export class ConnectionHandle implements DatabaseConnection {
  holdsWriter = false;
  inTransaction = false;
  constructor(readonly driver: HandleDriver) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    // Not cached: a cached statement cannot serve another query while it is being iterated.
    if (!this.holdsWriter) await this.driver.writerOutsideTransaction(this);
    const statement = this.driver.writer.db.prepare(query.sql);
    for (const row of statement.iterate(query.parameters as unknown[])) {
      yield { rows: [row as R] };
    }
  }
}
