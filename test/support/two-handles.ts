/**
 * Two database handles on one new, migrated database: what two processes sharing it would hold,
 * for tests of state the processes share (shared-limits/).
 */
import type { Db } from "../../src/db/connect.js";
import { openDatabase } from "../../src/db/connect.js";
import type { Engine } from "./databases.js";

export interface TwoHandles {
  a: Db;
  b: Db;
  close(): Promise<void>;
}

export async function openTwoHandles(engine: Engine): Promise<TwoHandles> {
  const database = await engine.createMigrated();
  const a = openDatabase(database.target);
  const b = openDatabase(database.target);
  return {
    a,
    b,
    close: async () => {
      await a.close();
      await b.close();
      await database.drop();
    },
  };
}
