/**
 * An event one feature raises and others react to (a customer enriched, a VIP found, a person
 * forgotten): a list of handlers, registered in main.ts by the features that care. Each handler
 * runs inside the raiser's transaction and writes its own jobs there (the outbox), so what
 * happened is never committed without what follows from it, nor followed twice.
 */
import type { Transaction } from "kysely";
import type { Database } from "../db/schema.js";

export type EventHandler<E> = (trx: Transaction<Database>, event: E, now: number) => Promise<void>;

/** Runs every handler of an event, in registration order, in the caller's transaction. */
export async function raise<E>(
  handlers: readonly EventHandler<E>[],
  trx: Transaction<Database>,
  event: E,
  now: number,
): Promise<void> {
  for (const handler of handlers) await handler(trx, event, now);
}
