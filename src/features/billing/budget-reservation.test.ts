/**
 * The spend ledger and the budget's reservations, on both engines: spend is the sum of the
 * ledger's shards, an
 * account without a budget writes no budget row, two reservations racing for the last room never
 * both have it, and a settlement that commits while a reservation waits is counted.
 */
import type { Kysely, Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import type { Database } from "../../db/schema.js";
import { monthOf } from "./get-usage.js";
import { getBudgetStatus, reserveBudget } from "./monthly-budget.js";
import { getProviderSpend, recordProviderSpend } from "./provider-spend.js";

const NOW = Date.UTC(2026, 10, 27, 12);
const MONTH = monthOf(NOW);

/**
 * A transaction that makes its writes, then stays open until `commit()`: `written` resolves once
 * the writes are made, `committed` with their result once the transaction has ended.
 */
function heldOpen<T>(db: Kysely<Database>, write: (trx: Transaction<Database>) => Promise<T>) {
  let commit = () => {};
  const gate = new Promise<void>((resolve) => {
    commit = resolve;
  });
  let wrote = () => {};
  const written = new Promise<void>((resolve) => {
    wrote = resolve;
  });
  const committed = db.transaction().execute(async (trx) => {
    const result = await write(trx);
    wrote();
    await gate;
    return result;
  });
  return { written, committed, commit: () => commit() };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`budget reservations on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    async function budgetRows(accountId: string) {
      return app.deps.db.kysely
        .selectFrom("budget_months")
        .selectAll()
        .where("account_id", "=", accountId)
        .execute();
    }

    it("adds every provider an attempt billed in one write, and spend is the ledger's sum", async () => {
      const { accountId } = await app.createAccount();
      const billed = [
        { provider: "pdl", lookups: 1, unitPriceUsd: "0.28" },
        { provider: "fullcontact", lookups: 2, unitPriceUsd: "0.1" },
        { provider: "gravatar", lookups: 0, unitPriceUsd: "0" },
      ];
      await recordProviderSpend(app.deps.db.kysely, accountId, billed, NOW);
      await recordProviderSpend(app.deps.db.kysely, accountId, billed.slice(0, 1), NOW);
      expect(await getProviderSpend(app.deps.db.kysely, accountId, MONTH)).toEqual({
        providers: [
          { provider: "fullcontact", lookups: 2, amountUsd: "0.20" },
          { provider: "pdl", lookups: 2, amountUsd: "0.56" },
        ],
        providerCostUsd: "0.76",
      });
      // Each write took a shard of its own: the two PDL additions are two rows, summed on read.
      const pdlRows = await app.deps.db.kysely
        .selectFrom("provider_spend")
        .select("shard")
        .where("account_id", "=", accountId)
        .where("provider", "=", "pdl")
        .execute();
      expect(new Set(pdlRows.map((r) => r.shard)).size).toBe(2);
      // No budget: the ledger alone is written, and it is what the Billing page shows as spent.
      expect(await budgetRows(accountId)).toEqual([]);
      const status = await getBudgetStatus(app.deps.db.kysely, accountId, MONTH);
      expect(status).toMatchObject({ budgetUsd: null, spentUsd: "0.76", reservedUsd: "0.00" });
    });

    it("reserves only what fits beside the ledger's spend and the other reservations", async () => {
      const { accountId } = await app.createAccount();
      const db = app.deps.db.kysely;
      await recordProviderSpend(
        db,
        accountId,
        [{ provider: "pdl", lookups: 3, unitPriceUsd: "0.28" }],
        NOW,
      );
      const held = await reserveBudget(db, accountId, MONTH, "1.00", 100_000);
      expect(held).toEqual({ accountId, month: MONTH, micros: 100_000 });
      // 0.84 spent + 0.10 held: 0.06 left.
      expect(await reserveBudget(db, accountId, MONTH, "1.00", 70_000)).toBeNull();
      expect(await reserveBudget(db, accountId, MONTH, "1.00", 60_000)).not.toBeNull();
      // Settling spends what was billed and gives back the reservation.
      await recordProviderSpend(
        db,
        accountId,
        [{ provider: "fullcontact", lookups: 1, unitPriceUsd: "0.1" }],
        NOW,
        held,
      );
      const status = await getBudgetStatus(db, accountId, MONTH);
      expect(status).toMatchObject({ spentUsd: "0.94", reservedUsd: "0.06" });
    });

    it("lets one of two racing reservations have the last room: the other waits, then is refused", async () => {
      const { accountId } = await app.createAccount();
      const db = app.deps.db.kysely;
      // A worker reserves the whole budget in a transaction not yet committed.
      const first = heldOpen(db, (trx) => reserveBudget(trx, accountId, MONTH, "0.50", 500_000));
      await first.written;
      // Another asks for one micro-dollar: what it reads committed still has room, so it must
      // wait for the first and check again.
      const second = reserveBudget(db, accountId, MONTH, "0.50", 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      first.commit();
      expect(await first.committed).not.toBeNull();
      expect(await second).toBeNull();
      expect(await getBudgetStatus(db, accountId, MONTH)).toMatchObject({
        spentUsd: "0.00",
        reservedUsd: "0.50",
      });
    });

    it("counts a settlement that committed while a reservation waited for the month's row", async () => {
      const { accountId } = await app.createAccount();
      const db = app.deps.db.kysely;
      const held = await reserveBudget(db, accountId, MONTH, "0.50", 300_000);
      expect(held).not.toBeNull();
      // The lookup's answers are stored: 0.30 spent, its reservation released, not yet committed.
      const settlement = heldOpen(db, (trx) =>
        recordProviderSpend(
          trx,
          accountId,
          [{ provider: "pdl", lookups: 1, unitPriceUsd: "0.30" }],
          NOW,
          held,
        ),
      );
      await settlement.written;
      // 0.20 fits both before and after the settlement; 0.20 more must then be refused.
      const reservation = reserveBudget(db, accountId, MONTH, "0.50", 200_000);
      await new Promise((resolve) => setTimeout(resolve, 100));
      settlement.commit();
      await settlement.committed;
      expect(await reservation).not.toBeNull();
      expect(await reserveBudget(db, accountId, MONTH, "0.50", 1)).toBeNull();
      expect(await getBudgetStatus(db, accountId, MONTH)).toMatchObject({
        spentUsd: "0.30",
        reservedUsd: "0.20",
      });
    });
  });
}
