import type { Kysely } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { type Db, openDatabase } from "../../db/connect.js";
import { migrateToLatest } from "../../db/migrate.js";
import type { Database } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { storeRateDay } from "../exchange-rates/store-rate-day.js";
import { MIN_STORE_ORDERS } from "./offline/order-history.js";
import {
  createStoreWindows,
  REBUILD_MS,
  STORE_WINDOW,
  type StoreWindows,
} from "./offline/store-order-window.js";
import { gatherOfflineSignals } from "./offline-signals.js";

let clock = Date.UTC(2025, 0, 1);
const tick = () => ++clock;

/** The signals of a stored customer, read as the enrichment job reads it. */
async function signalsOf(db: Kysely<Database>, windows: StoreWindows, id: string, now: number) {
  const customer = await db
    .selectFrom("customers")
    .select(["id", "store_id", "email_normalized", "address_zipcode", "address_country"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  return gatherOfflineSignals(db, windows, customer, now);
}

async function createStore(db: Kysely<Database>): Promise<string> {
  const accountId = newId();
  const storeId = newId();
  await db
    .insertInto("accounts")
    .values({ id: accountId, name: "A", created_at: tick() })
    .execute();
  await db
    .insertInto("stores")
    .values({ id: storeId, account_id: accountId, name: "S", created_at: tick() })
    .execute();
  return storeId;
}

async function createCustomer(
  db: Kysely<Database>,
  storeId: string,
  props: { email?: string; zipcode?: string | null; country?: string | null } = {},
): Promise<string> {
  const id = newId();
  const email = props.email ?? `c-${id}@acme-industries.com`;
  await db
    .insertInto("customers")
    .values({
      id,
      store_id: storeId,
      email,
      email_normalized: email.toLowerCase(),
      first_name: "Jane",
      last_name: "Doe",
      phone: null,
      address_city: null,
      address_state: null,
      address_zipcode: props.zipcode ?? null,
      address_country: props.country ?? null,
      enrichment_status: "pending",
      created_at: tick(),
      updated_at: clock,
    })
    .execute();
  return id;
}

async function addOrder(
  db: Kysely<Database>,
  storeId: string,
  customerId: string,
  total: string | null,
  currency = "USD",
): Promise<void> {
  await addOrders(db, storeId, customerId, [total], currency);
}

/** Many orders in one statement, each a millisecond after the last. */
async function addOrders(
  db: Kysely<Database>,
  storeId: string,
  customerId: string,
  totals: Array<string | null>,
  currency = "USD",
): Promise<void> {
  const rows = totals.map((total) => {
    const now = tick();
    return {
      id: newId(now),
      store_id: storeId,
      customer_id: customerId,
      external_order_id: null,
      order_number: null,
      total,
      currency,
      created_at: now,
    };
  });
  for (let i = 0; i < rows.length; i += 200) {
    await db
      .insertInto("orders")
      .values(rows.slice(i, i + 200))
      .execute();
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`gatherOfflineSignals (${engine.name})`, () => {
    let database: TestDatabase;
    let db: Db;
    let k: Kysely<Database>;
    const windows = createStoreWindows();

    beforeAll(async () => {
      database = await engine.create();
      db = openDatabase(database.target);
      k = db.kysely;
      await migrateToLatest(k);
    });
    afterAll(async () => {
      await db?.close();
      await database?.drop();
    });

    it("reads the latest order, the order count, the domain, and says ZIP data is not loaded", async () => {
      const store = await createStore(k);
      const c = await createCustomer(k, store, { email: "Jane@Gmail.com", zipcode: "10021" });
      await addOrder(k, store, c, "40.00");
      await addOrder(k, store, c, "925.50");
      await addOrder(k, store, c, null); // latest, but without a total: not the order that counts
      const s = await signalsOf(k, windows, c, clock);
      expect(s.latestOrder).toEqual({ kind: "order", total: "925.50", currency: "USD" });
      expect(s.orderCount).toBe(3);
      expect(s.emailDomain).toEqual({ domain: "gmail.com", kind: "free_mail" });
      // Two USD orders in the store: ranked against typical online orders until it has 20.
      expect(s.storeRank).toEqual({
        kind: "prior",
        percentile: 99.3,
        storeOrders: 2,
        minimum: 20,
        currency: "USD",
      });
      expect(s.area).toEqual({ kind: "not_loaded" });
    });

    it("waits for the store's own orders in a currency without a reference rate", async () => {
      const store = await createStore(k);
      const c = await createCustomer(k, store);
      await addOrder(k, store, c, "950.00", "EUR");
      expect((await signalsOf(k, windows, c, clock)).storeRank).toEqual({
        kind: "too_few_orders",
        storeOrders: 1,
        minimum: 20,
        currency: "EUR",
      });
    });

    it("ranks the order against the store's orders in the same currency, as numbers", async () => {
      const store = await createStore(k);
      const others = await createCustomer(k, store);
      // 30 USD orders from 1.00 to 30.00: as text "9.00" > "10.00", as numbers it is not.
      for (let i = 1; i <= 30; i++) await addOrder(k, store, others, `${i}.00`);
      for (let i = 0; i < 25; i++) await addOrder(k, store, others, "5000.00", "EUR");
      const c = await createCustomer(k, store);
      await addOrder(k, store, c, "100.00");
      const s = await signalsOf(k, windows, c, clock);
      // 30 below, itself equal (half): (30 + 0.5) / 31 = 98.4%.
      expect(s.storeRank).toEqual({
        kind: "ranked",
        percentile: 98.4,
        storeOrders: 31,
        currency: "USD",
      });

      const mid = await createCustomer(k, store);
      await addOrder(k, store, mid, "10.00");
      // Below: 1..9 (9); equal: 10.00 twice (ours and the other customer's); of 32 orders.
      const m = await signalsOf(k, windows, mid, clock);
      expect(m.storeRank).toEqual({
        kind: "ranked",
        percentile: 31.3,
        storeOrders: 32,
        currency: "USD",
      });
    });

    it("keeps a busy store's window up to date from the orders since, exactly as a fresh read", async () => {
      const store = await createStore(k);
      const others = await createCustomer(k, store);
      const upTo999 = Array.from({ length: STORE_WINDOW - 1 }, (_, i) => `${i + 1}.00`);
      await addOrders(k, store, others, upTo999);
      const first = await createCustomer(k, store);
      await addOrder(k, store, first, "600.00");
      const builtAt = clock;
      // 1.00 … 999.00 and 600.00 itself: 599 below, two equal (half each), of 1,000.
      expect((await signalsOf(k, windows, first, builtAt)).storeRank).toEqual({
        kind: "ranked",
        percentile: 60,
        storeOrders: STORE_WINDOW,
        currency: "USD",
      });
      const fresh = async (customerId: string) =>
        (await signalsOf(k, createStoreWindows(), customerId, clock)).storeRank;

      // 400 cheap orders push the 400 oldest out: the kept window must agree with a fresh read.
      await addOrders(
        k,
        store,
        others,
        Array.from({ length: 400 }, () => "1.00"),
      );
      const second = await createCustomer(k, store);
      await addOrder(k, store, second, "600.00");
      const kept = await signalsOf(k, windows, second, builtAt + 1);
      expect(kept.storeRank).toEqual(await fresh(second));
      expect(kept.storeRank).toMatchObject({ percentile: 60, storeOrders: STORE_WINDOW });

      // An order committed late with an older created_at (another process's clock) is missed
      // by the kept window until it is rebuilt.
      const late = clock - 2;
      await k
        .insertInto("orders")
        .values({
          id: newId(late),
          store_id: store,
          customer_id: others,
          external_order_id: null,
          order_number: null,
          total: "5000.00",
          currency: "USD",
          created_at: late,
        })
        .execute();
      const third = await createCustomer(k, store);
      await addOrder(k, store, third, "600.00");
      const beforeRebuild = await signalsOf(k, windows, third, builtAt + 2);
      expect(beforeRebuild.storeRank).not.toEqual(await fresh(third));
      const afterRebuild = await signalsOf(k, windows, third, builtAt + REBUILD_MS);
      expect(afterRebuild.storeRank).toEqual(await fresh(third));
    });

    it("ranks concurrent enrichments of one store as fresh reads would", async () => {
      const store = await createStore(k);
      const others = await createCustomer(k, store);
      await addOrders(
        k,
        store,
        others,
        Array.from({ length: 50 }, (_, i) => `${(i * 7) % 40}.00`),
      );
      const customers: string[] = [];
      for (let i = 0; i < 12; i++) {
        const c = await createCustomer(k, store);
        await addOrder(k, store, c, `${i * 3}.50`);
        customers.push(c);
      }
      const shared = createStoreWindows();
      const together = await Promise.all(customers.map((c) => signalsOf(k, shared, c, clock)));
      for (const [i, c] of customers.entries()) {
        const alone = await signalsOf(k, createStoreWindows(), c, clock);
        expect(together[i]?.storeRank, `customer ${i}`).toEqual(alone.storeRank);
      }
    });

    it("keeps a non-USD order's amount and currency and ranks it among that currency only", async () => {
      const store = await createStore(k);
      const others = await createCustomer(k, store);
      for (let i = 0; i < MIN_STORE_ORDERS - 1; i++)
        await addOrder(k, store, others, "10.00", "EUR");
      for (let i = 0; i < 40; i++) await addOrder(k, store, others, "99999.00", "USD");
      const c = await createCustomer(k, store);
      await addOrder(k, store, c, "950.00", "EUR");
      const s = await signalsOf(k, windows, c, clock);
      expect(s.latestOrder).toEqual({
        kind: "order",
        total: "950.00",
        currency: "EUR",
        usd: { kind: "no_rate", currency: "EUR" },
      });
      expect(s.storeRank).toEqual({
        kind: "ranked",
        percentile: 97.5,
        storeOrders: 20,
        currency: "EUR",
      });
    });

    it("has no order value and no rank for a customer without an order total", async () => {
      const store = await createStore(k);
      const c = await createCustomer(k, store);
      const s = await signalsOf(k, windows, c, clock);
      expect(s.latestOrder).toEqual({ kind: "none" });
      expect(s.storeRank).toEqual({ kind: "no_order" });
      expect(s.orderCount).toBe(0);
      expect(s.emailDomain).toEqual({ domain: "acme-industries.com", kind: "corporate" });
    });

    it("sums the counted orders of the latest order's currency, exactly, and says what it left out", async () => {
      const store = await createStore(k);
      const c = await createCustomer(k, store);
      await addOrders(k, store, c, ["19.99", "0.01", "1200.10"], "EUR");
      // 21 modest orders of $143.80: $3,019.80, summed without a float's drift.
      await addOrders(
        k,
        store,
        c,
        Array.from({ length: 21 }, () => "143.80"),
      );
      const cancelled = newId(tick());
      await k
        .insertInto("orders")
        .values({
          id: cancelled,
          store_id: store,
          customer_id: c,
          external_order_id: null,
          order_number: null,
          total: "5000.00",
          currency: "USD",
          created_at: clock,
          counts: 0,
        })
        .execute();
      const s = await signalsOf(k, windows, c, clock);
      expect(s.orderCount).toBe(24);
      expect(s.lifetime).toMatchObject({
        kind: "spend",
        currency: "USD",
        orders: 21,
        otherCurrencyOrders: 3,
        otherCurrencies: ["EUR"],
      });
      if (s.lifetime.kind !== "spend") throw new Error("no spend");
      expect(Number(s.lifetime.total)).toBe(3019.8);
      expect(Number(s.lifetime.largest)).toBe(143.8);
    });

    it("has no lifetime spend without an order total", async () => {
      const store = await createStore(k);
      const c = await createCustomer(k, store);
      await addOrder(k, store, c, null);
      expect((await signalsOf(k, windows, c, clock)).lifetime).toEqual({ kind: "none" });
    });

    it("looks the ZIP code up once the income data is loaded, and says when it is unknown", async () => {
      await k
        .insertInto("zip_incomes")
        .values([
          { zcta: "02139", median_household_income: 125_000, margin_of_error: 9_000 },
          { zcta: "94027", median_household_income: 250_001, margin_of_error: null },
        ])
        .execute();
      const store = await createStore(k);
      const cases: Array<[string | null, string | null, unknown]> = [
        ["02139-4307", "US", { kind: "found", zcta: "02139", medianHouseholdIncome: 125_000 }],
        ["94027", null, { kind: "found", zcta: "94027", medianHouseholdIncome: 250_001 }],
        ["94027", "usa", { kind: "found", zcta: "94027", medianHouseholdIncome: 250_001 }],
        ["99999", "", { kind: "unknown_zip", zcta: "99999" }],
        ["94027", "DE", { kind: "not_us", country: "DE" }],
        [null, "US", { kind: "no_zip" }],
        ["SW1A 1AA", null, { kind: "invalid_zip", zipcode: "SW1A 1AA" }],
      ];
      for (const [zipcode, country, expected] of cases) {
        const c = await createCustomer(k, store, { zipcode, country });
        expect((await signalsOf(k, windows, c, clock)).area, `${zipcode} ${country}`).toEqual(
          expected,
        );
      }
    });
    // Last: the rates stored here would convert the other tests' EUR orders.
    it("converts an order in another currency with the rates held, and ranks it in dollars until the store has its own", async () => {
      await storeRateDay(
        db,
        {
          date: "2025-05-09",
          source: "ECB",
          rates: new Map([
            ["USD", "1.1252"],
            ["JPY", "163.36"],
            ...["GBP", "CHF", "SEK", "NOK", "DKK", "PLN", "CZK", "HUF"].map(
              (c) => [c, "1.5"] as [string, string],
            ),
          ]),
        },
        clock,
      );
      const store = await createStore(k);
      const c = await createCustomer(k, store);
      await addOrder(k, store, c, "925.50", "EUR");
      const s = await signalsOf(k, windows, c, clock);
      // 925.50 × 1.1252 = 1,041.3726: $1,041.37.
      expect(s.latestOrder).toEqual({
        kind: "order",
        total: "925.50",
        currency: "EUR",
        usd: {
          kind: "converted",
          usdTotal: "1041.37",
          quote: {
            currency: "EUR",
            perEur: "1",
            usdPerEur: "1.1252",
            date: "2025-05-09",
            source: "ECB",
          },
        },
      });
      expect(s.storeRank).toMatchObject({
        kind: "prior",
        storeOrders: 1,
        currency: "EUR",
        usdTotal: "1041.37",
      });

      const yen = await createCustomer(k, store);
      await addOrder(k, store, yen, "150000", "JPY");
      const y = await signalsOf(k, windows, yen, clock);
      // 150,000 × 1.1252 ÷ 163.36 = 1,033.1783…: $1,033.18.
      expect(y.latestOrder).toMatchObject({ usd: { kind: "converted", usdTotal: "1033.18" } });

      const franc = await createCustomer(k, store);
      await addOrder(k, store, franc, "500.00", "XOF");
      const f = await signalsOf(k, windows, franc, clock);
      expect(f.latestOrder).toMatchObject({ usd: { kind: "no_rate", currency: "XOF" } });
      expect(f.storeRank).toMatchObject({ kind: "too_few_orders", currency: "XOF" });
    });
  });
}
