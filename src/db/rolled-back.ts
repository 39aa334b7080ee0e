/**
 * Runs `work` in a transaction that is always rolled back and returns what it returned: how a
 * command shows exactly what it would change (the same statements, the same counts, the same
 * refusals) before it is confirmed. Nothing of it is ever committed.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "./schema.js";

class RollBack<T> extends Error {
  constructor(readonly value: T) {
    super("rolled back on purpose");
  }
}

export async function rolledBack<T>(
  db: Kysely<Database>,
  work: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  try {
    await db.transaction().execute(async (trx) => {
      throw new RollBack(await work(trx));
    });
  } catch (error) {
    if (error instanceof RollBack) return error.value as T;
    throw error;
  }
  throw new Error("rolledBack: the transaction committed");
}
