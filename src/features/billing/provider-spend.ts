/**
 * The provider spend ledger: what the enrichment providers billed for an account's lookups, per
 * calendar month (UTC) and provider, in shards that reads add up. Each lookup is added at the
 * price in force when it was made (a price change never reprices the past), in micro-dollars,
 * with one upsert that adds to each provider's row: concurrent workers on any number of machines
 * add up exactly. The month's rows are the month's spend (month-spend.ts). It holds no customer
 * and nothing about a person, so erasure leaves it as it is, like `usage_charges`.
 */
import { type Kysely, sql, type Transaction } from "kysely";
import { dialectOf, preparedQuery } from "../../db/prepared-query.js";
import type { Database } from "../../db/schema.js";
import { fromMicros, toMicros } from "../../lib/decimal.js";
import { noticeBudgetUse } from "./budget-notices.js";
import { monthOf } from "./get-usage.js";
import type { Reservation } from "./monthly-budget.js";

/** Lookups one provider billed in one enrichment attempt, and the price it bills for each. */
export interface BilledLookups {
  provider: string;
  lookups: number;
  unitPriceUsd: string;
}

export interface ProviderSpend {
  provider: string;
  lookups: number;
  amountUsd: string;
}

export interface ProviderSpendSummary {
  providers: ProviderSpend[];
  /** The sum over the providers. */
  providerCostUsd: string;
}

/**
 * The ledger's rows per account, month and provider (migration 0031). Every enrichment of an
 * account adds to its month's rows, and PostgreSQL keeps a row locked until the transaction that
 * added to it commits: with one row, the account's enrichments would store one at a time. Each
 * transaction takes the next shard, from a random start per process, so a process's transactions
 * in flight (at most its pool's connections) wait for each other's rows only when more than 16
 * of them are.
 */
export const SPEND_SHARDS = 16;
let lastShard = Math.floor(Math.random() * SPEND_SHARDS);

function nextShard(): number {
  lastShard = (lastShard + 1) % SPEND_SHARDS;
  return lastShard;
}

// Prepared once (db/prepared-query.ts): every enrichment runs it, in the transaction that
// stores its answers. One statement for all the providers an attempt billed (a JSON list of
// rows), one round trip on PostgreSQL however many there were; each row adds to its provider's
// shard for the month. SQLite needs the WHERE for its parser to read ON CONFLICT as the upsert's.
const addProviderSpend = preparedQuery(
  ["account_id", "month", "shard", "rows", "updated_at"],
  (
    db,
    v: { account_id: string; month: string; shard: number; rows: string; updated_at: number },
  ) => {
    const rows =
      dialectOf(db) === "postgres"
        ? sql`select r.provider, r.lookups, r.amount_micros
            from json_to_recordset(cast(${v.rows} as json))
              as r(provider text, lookups integer, amount_micros bigint)`
        : sql`select json_extract(value, '$.provider') as provider,
              json_extract(value, '$.lookups') as lookups,
              json_extract(value, '$.amount_micros') as amount_micros
            from json_each(${v.rows})`;
    const statement = sql`insert into provider_spend
        (account_id, month, provider, shard, lookups, amount_micros, updated_at)
      select ${v.account_id}, ${v.month}, r.provider, ${v.shard}, r.lookups, r.amount_micros,
        ${v.updated_at}
      from (${rows}) as r where true
      on conflict (account_id, month, provider, shard) do update set
        lookups = provider_spend.lookups + excluded.lookups,
        amount_micros = provider_spend.amount_micros + excluded.amount_micros,
        updated_at = excluded.updated_at`;
    return { compile: () => statement.compile(db) };
  },
);

const releaseReservation = preparedQuery(
  ["account_id", "month", "released"],
  (db, v: { account_id: string; month: string; released: number }) =>
    db
      .updateTable("budget_months")
      .set((eb) => ({ reserved_micros: eb("reserved_micros", "-", v.released) }))
      .where("account_id", "=", v.account_id)
      .where("month", "=", v.month),
);

/**
 * Adds billed lookups to the account's ledger and releases the attempt's reservation if it
 * made one; call it in the transaction that stores the answers. The month is the reservation's
 * (a lookup reserved on the 31st at 23:59 is spent in that month). An account without a budget
 * writes the ledger alone: its rows are the month's spend (month-spend.ts).
 */
export async function recordProviderSpend(
  db: Kysely<Database> | Transaction<Database>,
  accountId: string,
  billed: BilledLookups[],
  now: number,
  reservation: Reservation | null = null,
): Promise<void> {
  const month = reservation?.month ?? monthOf(now);
  const rows = billed
    .filter((b) => b.lookups > 0)
    .map((b) => ({
      provider: b.provider,
      lookups: b.lookups,
      amount_micros: Number(toMicros(b.unitPriceUsd) * BigInt(b.lookups)),
    }));
  if (rows.length > 0) {
    await addProviderSpend.execute(db, {
      account_id: accountId,
      month,
      shard: nextShard(),
      rows: JSON.stringify(rows),
      updated_at: now,
    });
  }
  if (reservation === null) return;
  await releaseReservation.execute(db, {
    account_id: accountId,
    month,
    released: reservation.micros,
  });
  if (rows.some((r) => r.amount_micros > 0)) await noticeBudgetUse(db, accountId, month, now);
}

/** The month's spend per provider (those that billed anything), by provider name. */
export async function getProviderSpend(
  db: Kysely<Database>,
  accountId: string,
  month: string,
): Promise<ProviderSpendSummary> {
  const rows = await db
    .selectFrom("provider_spend")
    .select((eb) => [
      "provider",
      eb.fn.sum<number | string>("lookups").as("lookups"),
      eb.fn.sum<number | string>("amount_micros").as("amount_micros"),
    ])
    .where("account_id", "=", accountId)
    .where("month", "=", month)
    .groupBy("provider")
    .orderBy("provider")
    .execute();
  let total = 0n;
  const providers = rows.map((r) => {
    const amount = BigInt(r.amount_micros);
    total += amount;
    return { provider: r.provider, lookups: Number(r.lookups), amountUsd: fromMicros(amount) };
  });
  return { providers, providerCostUsd: fromMicros(total) };
}
