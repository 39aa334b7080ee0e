/**
 * The lists to take away, on both engines: every customer of the account (another account's
 * never), filtered by VIP and tier, with the tier, VIP since, and the spend and count of the
 * orders that count in the latest counted order's currency; read lazily in keyset batches, so
 * the first customer is out before the last batch is read; as CSV with formula-like text defused.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedListedCustomers } from "../../../test/support/customer-list-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import { createAccount } from "../accounts/create-account.js";
import { updateAccount } from "../accounts/update-account.js";
import { customerListChunks } from "./customer-list-chunks.js";
import { type CustomerListEntry, customerListEntries } from "./customer-list-entries.js";
import type { CustomerFilter } from "./filter-customers.js";

async function all(it: AsyncIterable<CustomerListEntry>) {
  const out: CustomerListEntry[] = [];
  for await (const e of it) out.push(e);
  return out;
}

async function text(it: AsyncIterable<string>) {
  let out = "";
  for await (const chunk of it) out += chunk;
  return out;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`customer lists on ${engine.name}`, () => {
    let t: TestDeps;
    let accountId: string;
    let storeId: string;
    const at = Date.UTC(2026, 10, 1);

    beforeAll(async () => {
      t = await startTestDeps(engine);
      const db = t.deps.db.kysely;
      const account = await createAccount(
        db,
        { name: "Lists", ownerEmail: "owner@lists.example", passwordHash: null },
        at,
      );
      ({ accountId, storeId } = account);
      await updateAccount(db, accountId, {
        tiers: [
          { name: "Gold", floor: 90 },
          { name: "Silver", floor: 80 },
        ],
      });
      await seedListedCustomers(
        db,
        storeId,
        [
          {
            email: "ada@example.com",
            firstName: "=cmd|' /C calc'!A0",
            lastName: "",
            score: 95,
            vip: true,
            orders: [
              { total: "100.10", currency: "USD" },
              { total: "50.00", currency: "EUR" },
              { total: "20.00", currency: "EUR" },
              { total: "999.00", currency: "EUR", counts: false },
            ],
          },
          {
            email: "grace@example.com",
            firstName: "Grace",
            lastName: "Hopper",
            score: 85,
            vip: true,
            orders: [{ total: "1250.00", currency: "USD" }],
          },
          { email: "linus@example.com", firstName: "Linus", score: 60, vip: false },
          { email: "new@example.com", firstName: "New", score: null },
        ],
        at,
      );
      // Another account's VIP, in the same tier: never in this account's lists.
      const other = await createAccount(
        db,
        { name: "Other", ownerEmail: "owner@other.example", passwordHash: null },
        at,
      );
      await updateAccount(db, other.accountId, { tiers: [{ name: "Gold", floor: 90 }] });
      await seedListedCustomers(db, other.storeId, [
        { email: "other@example.com", score: 99, vip: true },
      ]);
    });
    afterAll(() => t?.close());

    const list = (filter: CustomerFilter, batchSize?: number) =>
      all(customerListEntries(t.deps.db.kysely, accountId, filter, { batchSize }));

    it("lists every customer of the account with tier, VIP since, spend and count", async () => {
      const entries = await list({});
      expect(entries.map((e) => e.email)).toEqual([
        "ada@example.com",
        "grace@example.com",
        "linus@example.com",
        "new@example.com",
      ]);
      expect(entries[0]).toEqual({
        email: "ada@example.com",
        name: "=cmd|' /C calc'!A0",
        score: 95,
        tier: "Gold",
        vip: true,
        vipSince: new Date(at).toISOString(),
        // The latest counted order is in EUR: only the EUR orders that count are summed.
        lifetimeSpend: "70.00",
        currency: "EUR",
        orderCount: 3,
      });
      expect(entries[1]).toMatchObject({ tier: "Silver", lifetimeSpend: "1250.00", orderCount: 1 });
      expect(entries[2]).toMatchObject({ tier: null, vip: false, vipSince: null });
      expect(entries[3]).toMatchObject({
        score: null,
        tier: null,
        lifetimeSpend: null,
        currency: null,
        orderCount: 0,
      });
    });

    it("filters by VIP and by tier (any case); an unknown tier lists nobody", async () => {
      expect((await list({ vip: true })).map((e) => e.email)).toEqual([
        "ada@example.com",
        "grace@example.com",
      ]);
      expect((await list({ tier: "silver" })).map((e) => e.email)).toEqual(["grace@example.com"]);
      expect((await list({ tier: "Gold", vip: true })).map((e) => e.email)).toEqual([
        "ada@example.com",
      ]);
      expect(await list({ tier: "Bronze" })).toEqual([]);
    });

    it("gives the same list whatever the batch size", async () => {
      expect(await list({}, 1)).toEqual(await list({}));
      expect(await list({}, 3)).toEqual(await list({}));
    });

    it("reads batches lazily: the first customer is out before the last batch is read", async () => {
      const entries = customerListEntries(t.deps.db.kysely, accountId, {}, { batchSize: 2 });
      const first = await entries.next();
      expect(first.value).toMatchObject({ email: "ada@example.com" });
      // Added after the first customer was handed out: a list read all at once would miss them.
      const [lateId] = await seedListedCustomers(
        t.deps.db.kysely,
        storeId,
        [{ email: "late@example.com", score: 10 }],
        Date.now(),
      );
      const rest = await all({ [Symbol.asyncIterator]: () => entries });
      expect(rest.map((e) => e.email)).toEqual([
        "grace@example.com",
        "linus@example.com",
        "new@example.com",
        "late@example.com",
      ]);
      const db = t.deps.db.kysely;
      await db
        .deleteFrom("enrichments")
        .where("customer_id", "=", lateId ?? "")
        .execute();
      await db
        .deleteFrom("customers")
        .where("id", "=", lateId ?? "")
        .execute();
    });

    it("writes CSV with a header row and the formula-like name as text, and one JSON object", async () => {
      const csv = await text(
        customerListChunks(customerListEntries(t.deps.db.kysely, accountId, { vip: true }), "csv"),
      );
      expect(csv.split("\r\n")).toEqual([
        '"email","name","score","tier","vip","vip_since","lifetime_spend","currency","order_count"',
        `"ada@example.com","'=cmd|' /C calc'!A0",95,"Gold",true,"${new Date(at).toISOString()}","70.00","EUR",3`,
        `"grace@example.com","Grace Hopper",85,"Silver",true,"${new Date(at + 10).toISOString()}","1250.00","USD",1`,
        "",
      ]);
      const json = await text(
        customerListChunks(customerListEntries(t.deps.db.kysely, accountId, { vip: true }), "json"),
      );
      expect(json.endsWith("\n")).toBe(true);
      expect(json.trimEnd().includes("\n")).toBe(false);
      const parsed = JSON.parse(json) as { customers: CustomerListEntry[] };
      expect(parsed.customers.map((c) => [c.email, c.tier])).toEqual([
        ["ada@example.com", "Gold"],
        ["grace@example.com", "Silver"],
      ]);
      const empty = await text(
        customerListChunks(customerListEntries(t.deps.db.kysely, accountId, { tier: "x" }), "json"),
      );
      expect(JSON.parse(empty)).toEqual({ customers: [] });
    });
  });
}
