/**
 * PostgreSQL: the API-key lookups that arrive while one is out go to the database together, as
 * one statement (`key_hash = any($1)`), as soon as it answers: one round trip and one pool
 * checkout for every request of a busy moment instead of one each (group commit's idea applied
 * to a read; lib/micro-batcher.ts). At low load each lookup goes alone at once. Nothing is
 * cached: every request's key is read from the database after the request arrived, so a revoked
 * key is refused on the next request on every node, as before.
 *
 * SQLite reads on a local connection with no round trip: a lookup is made at once on the driver's
 * query-only connection, and the lookups of one event-loop turn share their answers. Under load a
 * turn reads dozens of requests, nearly all with the same key, and the three-table read cost more
 * than the rest of authentication. The answers are dropped when the turn ends, so a revocation
 * (or a new limit) holds from the next turn on, on every process: only a request read in the
 * same turn as the revocation's commit, that is at the same moment, can still pass.
 */
import type { Db } from "../../db/connect.js";
import { type Executor, preparedQuery } from "../../db/prepared-query.js";
import type { StatementCache } from "../../db/sqlite-statement-cache.js";
import { batcherPerOwner } from "../../lib/micro-batcher.js";

/**
 * Lookups out at once per process. One: a lookup takes a fraction of a millisecond, and every
 * request that arrives meanwhile joins the next one (2 in flight measured 10 % slower: smaller
 * batches, more round trips).
 */
const LOOKUPS_IN_FLIGHT = 1;
/** Distinct keys per statement at most. */
const MAX_BATCH = 256;

const findLiveKey = preparedQuery(["key_hash"], (db, v: { key_hash: string }) =>
  liveKeys(db).where("api_keys.key_hash", "=", v.key_hash),
);

const findLiveKeys = preparedQuery(["key_hashes"], (db, v: { key_hashes: string[] }) =>
  liveKeys(db).where("api_keys.key_hash", "=", (eb) => eb.fn("any", [eb.val(v.key_hashes)])),
);

/** A live key's row, as the queries below select it (the schema's types, not written again). */
export type LiveKeyRow = NonNullable<Awaited<ReturnType<typeof findLiveKey.executeTakeFirst>>>;

/**
 * Unrevoked keys of a real store: a key of the sample store (features/demo) would write into
 * it, so none is ever made there, and one that were would not be live.
 */
function liveKeys(db: Executor) {
  return db
    .selectFrom("api_keys")
    .innerJoin("stores", "stores.id", "api_keys.store_id")
    .innerJoin("accounts", "accounts.id", "stores.account_id")
    .select([
      "api_keys.key_hash",
      "api_keys.id",
      "api_keys.store_id",
      "api_keys.last_used_at",
      "stores.account_id",
      "accounts.api_rate_limit_per_minute",
    ])
    .where("api_keys.revoked_at", "is", null)
    .where("stores.sample", "=", 0);
}

const lookups = batcherPerOwner((db: Db) => ({
  maxBatch: MAX_BATCH,
  maxInFlight: LOOKUPS_IN_FLIGHT,
  run: async (hashes: readonly string[]) => {
    // On the order intake's own connections (`indexed`), not the shared pool: with the worker
    // in the process, hundreds of enrichment jobs queue for the shared pool's connections, and a
    // request's key lookup waiting behind them held orders for seconds (bench: stalls).
    const rows = await findLiveKeys.execute(db.indexed, { key_hashes: [...new Set(hashes)] });
    const byHash = new Map(rows.map((row) => [row.key_hash, row]));
    return hashes.map((hash) => ({ status: "fulfilled" as const, value: byHash.get(hash) }));
  },
}));

/** The live (unrevoked) key with this hash, its store and its account's limit; undefined if none. */
export function findLiveKeyByHash(db: Db, keyHash: string): Promise<LiveKeyRow | undefined> {
  if (db.dialect === "postgres") return lookups(db).submit(keyHash);
  // SQLite: at once on the query-only connection (committed data, as any read outside a
  // transaction), without Kysely's per-query machinery; in memory, through the writer's queue.
  const reader = db.sqlite?.driver.reader;
  if (db.sqlite && reader) {
    const answers = answersThisTurn(reader);
    if (answers.has(keyHash)) return Promise.resolve(answers.get(keyHash));
    const row = findLiveKey.allSync(db.sqlite, reader, { key_hash: keyHash })[0];
    answers.set(keyHash, row);
    return Promise.resolve(row);
  }
  return findLiveKey.executeTakeFirst(db.kysely, { key_hash: keyHash });
}

/** SQLite: this turn's answers per connection, found or not, forgotten when the turn ends. */
const turnAnswers = new WeakMap<StatementCache, Map<string, LiveKeyRow | undefined>>();

function answersThisTurn(reader: StatementCache): Map<string, LiveKeyRow | undefined> {
  let answers = turnAnswers.get(reader);
  if (answers === undefined) {
    answers = new Map();
    turnAnswers.set(reader, answers);
    setImmediate(() => turnAnswers.delete(reader));
  }
  return answers;
}
