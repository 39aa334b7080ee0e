import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { importOrders, type RowError } from "./import-orders.js";

const dir = mkdtempSync(join(tmpdir(), "velvet-import-"));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const SHOPIFY_HEADER =
  "Name,Email,Financial Status,Paid at,Currency,Subtotal,Total,Created at,Lineitem quantity,Lineitem name,Billing Name,Billing City,Billing Zip,Billing Province,Billing Country,Billing Phone,Id";
// Two line items for #1001, one for #1002 (same customer, other case), one for #1003.
const SHOPIFY = [
  SHOPIFY_HEADER,
  "#1001,ada@example.com,paid,2024-03-05 14:02:11 -0500,USD,120.00,129.90,2024-03-05 14:02:11 -0500,1,Scarf,Ada Lovelace,London,10001,NY,US,+1 212 555 0100,5001",
  "#1001,,,,,,,2024-03-05 14:02:11 -0500,2,Gloves,,,,,,,5001",
  "#1002,ADA@example.com,paid,,USD,10.00,10.00,2024-04-01 09:00:00 +0000,1,Hat,Ada Lovelace,London,10001,NY,US,,5002",
  '#1003,grace@example.com,paid,,EUR,,"1,000.00",2024-05-01T10:00:00Z,1,Coat,Grace Hopper,Arlington,22201,VA,US,,5003',
  "#1004,alan@example.com,paid,,EUR,,2500.00,2024-05-02T10:00:00Z,1,Coat,Alan Turing,Wilmslow,,,GB,,5004",
].join("\n");

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`importOrders on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    const count = async (table: "customers" | "orders" | "usage_charges" | "jobs") =>
      Number(
        (
          await app.deps.db.kysely
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number | string>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );

    it("dry-runs a Shopify export (counts and cost, nothing written), imports it, and imports nothing the second time", async () => {
      const account = await app.createAccount();
      const path = file(`shopify-${engine.name}.csv`, SHOPIFY);
      const errors: RowError[] = [];
      const run = (apply: boolean) =>
        importOrders(app.deps, {
          accountId: account.accountId,
          file: path,
          apply,
          alerts: false,
          onRowError: (e) => errors.push(e),
        });
      const before = await Promise.all([count("customers"), count("orders"), count("jobs")]);

      const dry = await run(false);
      // #1003's total "1,000.00" is not a decimal string: reported with its line, not imported.
      expect(dry).toEqual({
        rows: 5,
        orders: 3,
        customers: 2,
        newCustomers: 2,
        charges: 2,
        amountUsd: "0.10",
        skipped: 0,
        forgotten: 0,
        errors: 1,
        providers: [],
        providerCostUsd: "0.00",
        budgetUsd: null,
        budgetLeftUsd: null,
        budgetCovers: null,
      });
      expect(errors).toEqual([
        { line: 5, reason: 'order.total must be a non-negative decimal string, such as "129.90"' },
      ]);
      expect(await Promise.all([count("customers"), count("orders"), count("jobs")])).toEqual(
        before,
      );

      const first = await run(true);
      expect(first).toEqual({ ...dry, skipped: 0 });
      const orders = await app.deps.db.kysely
        .selectFrom("orders")
        .select(["external_order_id", "order_number", "total", "currency", "created_at"])
        .where("store_id", "=", account.storeId)
        .orderBy("external_order_id")
        .execute();
      expect(orders.map((o) => ({ ...o, created_at: Number(o.created_at) }))).toEqual([
        {
          external_order_id: "5001",
          order_number: "#1001",
          total: "129.90",
          currency: "USD",
          created_at: Date.parse("2024-03-05T19:02:11Z"),
        },
        {
          external_order_id: "5002",
          order_number: "#1002",
          total: "10.00",
          currency: "USD",
          created_at: Date.parse("2024-04-01T09:00:00Z"),
        },
        {
          external_order_id: "5004",
          order_number: "#1004",
          total: "2500.00",
          currency: "EUR",
          created_at: Date.parse("2024-05-02T10:00:00Z"),
        },
      ]);
      const customers = await app.deps.db.kysely
        .selectFrom("customers")
        .select(["email", "first_name", "last_name", "address_zipcode", "created_at"])
        .where("store_id", "=", account.storeId)
        .orderBy("email")
        .execute();
      expect(customers.map((c) => ({ ...c, created_at: Number(c.created_at) }))).toEqual([
        {
          email: "ada@example.com",
          first_name: "Ada",
          last_name: "Lovelace",
          address_zipcode: "10001",
          created_at: Date.parse("2024-03-05T19:02:11Z"),
        },
        {
          email: "alan@example.com",
          first_name: "Alan",
          last_name: "Turing",
          address_zipcode: null,
          created_at: Date.parse("2024-05-02T10:00:00Z"),
        },
      ]);
      // Backfill: low priority, and no VIP alert for these customers.
      const jobs = await app.deps.db.kysely
        .selectFrom("jobs")
        .select(["priority", "payload"])
        .execute();
      const mine = jobs.filter((j) => j.payload.includes('"alerts":false'));
      expect(mine).toHaveLength(2);
      expect(mine.every((j) => j.priority === 1)).toBe(true);

      const snapshot = await Promise.all([
        count("customers"),
        count("orders"),
        count("usage_charges"),
        count("jobs"),
      ]);
      const again = await run(true);
      expect(again).toEqual({
        ...first,
        newCustomers: 0,
        charges: 0,
        amountUsd: "0.00",
        skipped: 3,
      });
      expect(
        await Promise.all([
          count("customers"),
          count("orders"),
          count("usage_charges"),
          count("jobs"),
        ]),
      ).toEqual(snapshot);
      // The dry run agrees with the database too.
      expect(await run(false)).toEqual(again);

      // Alan orders live while his imported enrichment still waits: it joins the live queue,
      // and may alert; Ada's stays a backfill.
      const live = await app.submit(account.apiKey, {
        email: "alan@example.com",
        firstName: "Alan",
        lastName: "Turing",
        order: { id: "live-1" },
      });
      expect(await live.json()).toMatchObject({ enrichmentStatus: "queued" });
      const after = await app.deps.db.kysely
        .selectFrom("jobs")
        .innerJoin("customers", (join) =>
          join.on(sql`jobs.job_key`, "=", sql`${"enrich-customer:"} || customers.id`),
        )
        .select(["customers.email", "jobs.priority", "jobs.payload"])
        .where("customers.store_id", "=", account.storeId)
        .orderBy("customers.email")
        .execute();
      expect(after.map((j) => [j.email, j.priority, j.payload.includes('"alerts":false')])).toEqual(
        [
          ["ada@example.com", 1, true],
          ["alan@example.com", 0, false],
        ],
      );
    });

    it("reads WooCommerce and plain exports; bad rows are reported by line and the others imported", async () => {
      const account = await app.createAccount();
      const woo = file(
        `woo-${engine.name}.csv`,
        [
          "order_id,order_number,order_date,status,order_total,order_currency,billing_first_name,billing_last_name,billing_email,billing_phone,billing_city,billing_state,billing_postcode,billing_country,line_item_1",
          "188,188,2024-01-02 03:04:05,completed,55.00,USD,Skyler,White,skyler@example.com,505 555 0100,Albuquerque,NM,87104,US,Mug",
          "189,189,2024-01-03 03:04:05,completed,15.00,USD,Walter,,walter@example.com,,,,,,Hat",
          "190,190,not a date,completed,15.00,USD,Jesse,Pinkman,jesse@example.com,,,,,,Hat",
          "191,191,2024-01-04,completed,15.00,USD,Jesse,Pinkman,jesse@example.com,,,,,,Hat",
        ].join("\r\n"),
      );
      const errors: RowError[] = [];
      const summary = await importOrders(app.deps, {
        accountId: account.accountId,
        file: woo,
        apply: true,
        alerts: false,
        onRowError: (e) => errors.push(e),
      });
      expect(summary).toMatchObject({
        rows: 4,
        orders: 2,
        customers: 2,
        newCustomers: 2,
        errors: 2,
      });
      expect(errors).toEqual([
        { line: 3, reason: "Missing required fields: lastName" },
        {
          line: 4,
          reason: 'order date "not a date" is not a date such as 2024-03-05 14:02:11 -0500',
        },
      ]);

      const plain = file(
        `plain-${engine.name}.csv`,
        [
          "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at",
          "skyler@example.com,Skyler,White,,,,,,p-1,P1,12.00,usd,2023-12-31T23:00:00-01:00",
          "marie@example.com,Marie,Schrader,,,,,,,P2,12.00,USD,2024-01-01",
          "hank@example.com,Hank,Schrader,,,,,,188,P3,12.00,USD,2024-01-01",
        ].join("\n"),
      );
      errors.length = 0;
      const second = await importOrders(app.deps, {
        accountId: account.accountId,
        file: plain,
        apply: true,
        alerts: false,
        onRowError: (e) => errors.push(e),
      });
      // skyler exists (from the WooCommerce file): an order, no new charge. Order 188 belongs
      // to skyler already: Hank's row conflicts, reported like the API's 409.
      expect(second).toMatchObject({
        rows: 3,
        orders: 1,
        customers: 1,
        newCustomers: 0,
        charges: 0,
        errors: 2,
      });
      expect(errors).toEqual([
        { line: 3, reason: "the order has no id: without one a second run would import it twice" },
        { line: 4, reason: 'order.id "188" already belongs to a different customer of this store' },
      ]);
      const skyler = await app.deps.db.kysely
        .selectFrom("customers")
        .select("created_at")
        .where("store_id", "=", account.storeId)
        .where("email_normalized", "=", "skyler@example.com")
        .executeTakeFirstOrThrow();
      // Backdated to the earliest order seen (2024-01-01T00:00Z, from the plain file).
      expect(Number(skyler.created_at)).toBe(Date.parse("2024-01-01T00:00:00Z"));
    });

    it("refuses a file it does not recognise, and an unknown account", async () => {
      const account = await app.createAccount();
      const bad = file("bad.csv", "a,b,c\n1,2,3\n");
      await expect(
        importOrders(app.deps, {
          accountId: account.accountId,
          file: bad,
          apply: false,
          alerts: false,
        }),
      ).rejects.toThrow(/Not a Shopify, WooCommerce or plain order export/);
      await expect(
        importOrders(app.deps, {
          accountId: "00000000-0000-7000-8000-000000000000",
          file: bad,
          apply: false,
          alerts: false,
        }),
      ).rejects.toThrow(/No account/);
    });

    it("keeps a ZIP that Shopify wrote with a leading apostrophe (and its leading zero)", async () => {
      const account = await app.createAccount();
      const path = file(
        `shopify-zip-${engine.name}.csv`,
        [
          SHOPIFY_HEADER,
          "#2001,radia@example.com,paid,,USD,300.00,300.00,2024-05-03T10:00:00Z,1,Coat,Radia Perlman,Boston,'02134,MA,US,'+1 617 555 0100,6001",
        ].join("\n"),
      );
      const summary = await importOrders(app.deps, {
        accountId: account.accountId,
        file: path,
        apply: true,
        alerts: false,
      });
      expect(summary).toMatchObject({ orders: 1, errors: 0 });
      const customer = await app.deps.db.kysely
        .selectFrom("customers")
        .select(["address_zipcode", "phone"])
        .where("store_id", "=", account.storeId)
        .executeTakeFirstOrThrow();
      expect(customer.address_zipcode).toBe("02134");
      expect(customer.phone).not.toContain("'");
    });
  });
}
