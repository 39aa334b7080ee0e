/**
 * What erasing a customer or closing an account would remove, without removing it: the answer
 * of `velvet customer forget` and `velvet account delete` before --yes. The customer's counts
 * come from the erasure itself, run in a transaction that is always rolled back, so the preview
 * counts exactly what the real erasure would.
 */
import type { Kysely } from "kysely";
import { rolledBack } from "../../db/rolled-back.js";
import type { Database } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import type { CustomerLookup } from "../customers/get-customer-report.js";
import { type ErasedCounts, eraseCustomerRows } from "./erase-customer-rows.js";
import { findAccountCustomerId } from "./find-account-customer.js";
import type { PrivacyDeps } from "./privacy-registry.js";

export function previewCustomerErasure(
  deps: Pick<Deps, "db" | "clock" | "config"> & PrivacyDeps,
  accountId: string,
  lookup: CustomerLookup,
): Promise<{ customerId: string; erased: ErasedCounts } | null> {
  return rolledBack(deps.db.kysely, async (trx) => {
    const customerId = await findAccountCustomerId(trx, accountId, lookup);
    if (customerId === null) return null;
    // It previews the person's request, so it runs as one (rolled back: nothing is enqueued).
    const erased = await eraseCustomerRows(
      trx,
      deps,
      customerId,
      "erasure_request",
      deps.clock.now(),
    );
    return { customerId, erased };
  });
}

export type AccountClosingPreview =
  | { kind: "not_found" }
  | { kind: "already_closed" }
  | {
      kind: "open";
      name: string;
      activeKeys: number;
      stores: number;
      sessions: number;
      users: number;
      customers: number;
    };

export async function previewAccountClosing(
  db: Kysely<Database>,
  accountId: string,
): Promise<AccountClosingPreview> {
  const account = await db
    .selectFrom("accounts")
    .select(["name", "closed_at"])
    .where("id", "=", accountId)
    .executeTakeFirst();
  if (!account) return { kind: "not_found" };
  if (account.closed_at !== null) return { kind: "already_closed" };
  const stores = db.selectFrom("stores").select("id").where("account_id", "=", accountId);
  const count = (n: { n: number | string | bigint } | undefined) => Number(n?.n ?? 0);
  const [keys, connections, sessions, users, customers] = await Promise.all([
    db
      .selectFrom("api_keys")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("store_id", "in", stores)
      .where("revoked_at", "is", null)
      .executeTakeFirst(),
    db
      .selectFrom("store_connections")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirst(),
    db
      .selectFrom("sessions")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirst(),
    db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("account_id", "=", accountId)
      .executeTakeFirst(),
    db
      .selectFrom("customers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("store_id", "in", stores)
      .executeTakeFirst(),
  ]);
  return {
    kind: "open",
    name: account.name,
    activeKeys: count(keys),
    stores: count(connections),
    sessions: count(sessions),
    users: count(users),
    customers: count(customers),
  };
}
