/**
 * Migration 0022 on a database that holds sample data the way 0018 stored it (sample customers
 * in the real store), on both engines: a sample customer with only sample orders moves with
 * them to the account's new sample store; a sample customer who also got a real order becomes
 * real (an order without an id is real too), keeps that order, loses its sample ones and is
 * queued for enrichment again; a real
 * customer loses the sample orders attached to it and keeps its own; a real customer with a
 * store order id that merely starts with `sample-` keeps it; an account without sample data
 * gets no sample store.
 */
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { upgradeBeforeTests } from "../../../test/support/migration-upgrade.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";
import type { Database } from "../schema.js";

const BEFORE = Object.fromEntries(
  Object.entries(MIGRATIONS).filter(([name]) => name < "0022_sample_store"),
);

async function seed(k: Kysely<Database>) {
  const now = Date.now();
  const account = async () => {
    const [accountId, storeId] = [newId(), newId()];
    await k
      .insertInto("accounts")
      .values({
        id: accountId,
        name: "A",
        created_at: now,
      })
      .execute();
    await k
      .insertInto("stores")
      .values({ id: storeId, account_id: accountId, name: "A", created_at: now })
      .execute();
    return { accountId, storeId };
  };
  const customer = async (storeId: string, email: string, sample: number) => {
    const id = newId();
    await k
      .insertInto("customers")
      .values({
        id,
        store_id: storeId,
        email,
        email_normalized: email,
        first_name: "A",
        last_name: "B",
        phone: null,
        address_city: null,
        address_state: null,
        address_zipcode: null,
        address_country: null,
        enrichment_status: "enriched",
        created_at: now,
        updated_at: now,
        sample,
      })
      .execute();
    return id;
  };
  const order = async (storeId: string, customerId: string, externalId: string | null) => {
    const id = newId();
    await k
      .insertInto("orders")
      .values({
        id,
        store_id: storeId,
        customer_id: customerId,
        external_order_id: externalId,
        order_number: null,
        total: "10.00",
        currency: "USD",
        created_at: now,
      })
      .execute();
    return id;
  };
  const demo = await account();
  const onlySample = await customer(demo.storeId, "olivia.smith1@example.com", 1);
  const onlySampleOrders = [
    await order(demo.storeId, onlySample, "sample-1001"),
    await order(demo.storeId, onlySample, "sample-1002"),
  ];
  const merged = await customer(demo.storeId, "liam.davis2@example.org", 1);
  await order(demo.storeId, merged, "sample-1003");
  const mergedReal = await order(demo.storeId, merged, "5001");
  // The API takes an order without an id: a real order all the same.
  const mergedNoId = await customer(demo.storeId, "noah.king4@example.com", 1);
  await order(demo.storeId, mergedNoId, "sample-1005");
  const mergedNoIdReal = await order(demo.storeId, mergedNoId, null);
  const realWithSample = await customer(demo.storeId, "emma.lee3@example.net", 0);
  const realOwn = await order(demo.storeId, realWithSample, "5002");
  await order(demo.storeId, realWithSample, "sample-1004");
  const plain = await customer(demo.storeId, "jane@acme.com", 0);
  const plainOrder = await order(demo.storeId, plain, "sample-promo-7");
  const other = await account();
  const otherCustomer = await customer(other.storeId, "bob@acme.com", 0);
  return {
    demo,
    other,
    onlySample,
    onlySampleOrders,
    merged,
    mergedReal,
    mergedNoId,
    mergedNoIdReal,
    realWithSample,
    realOwn,
    plain,
    plainOrder,
    otherCustomer,
  };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`migration 0022 on sample data (${engine.name})`, () => {
    let db: Db;
    let rows: Awaited<ReturnType<typeof seed>>;

    upgradeBeforeTests(engine, BEFORE, seed, (u) => {
      db = u.db;
      rows = u.rows;
    });

    const k = () => db.kysely;
    const ordersOf = async (customerId: string) =>
      (
        await k()
          .selectFrom("orders")
          .select(["id", "store_id"])
          .where("customer_id", "=", customerId)
          .orderBy("id")
          .execute()
      ).map((o) => o.id);
    const customer = (id: string) =>
      k()
        .selectFrom("customers")
        .select(["store_id", "sample", "enrichment_status"])
        .where("id", "=", id)
        .executeTakeFirstOrThrow();

    it("moves a sample customer with its sample orders to the account's one sample store", async () => {
      const stores = await k()
        .selectFrom("stores")
        .select(["id", "account_id", "sample"])
        .where("sample", "=", 1)
        .execute();
      expect(stores).toEqual([expect.objectContaining({ account_id: rows.demo.accountId })]);
      const sampleStore = stores[0]?.id;
      expect(await customer(rows.onlySample)).toMatchObject({ store_id: sampleStore, sample: 1 });
      const moved = await k()
        .selectFrom("orders")
        .select(["id", "store_id"])
        .where("customer_id", "=", rows.onlySample)
        .execute();
      expect(moved.map((o) => o.id).sort()).toEqual([...rows.onlySampleOrders].sort());
      expect(moved.every((o) => o.store_id === sampleStore)).toBe(true);
      // One sample store per account.
      const again = k().insertInto("stores").values({
        id: newId(),
        account_id: rows.demo.accountId,
        name: "x",
        created_at: 0,
        sample: 1,
      });
      await expect(again.execute()).rejects.toThrow();
    });

    it("makes a sample customer with a real order real, queued for enrichment as history", async () => {
      expect(await customer(rows.merged)).toEqual({
        store_id: rows.demo.storeId,
        sample: 0,
        enrichment_status: "pending",
      });
      expect(await ordersOf(rows.merged)).toEqual([rows.mergedReal]);
      // An order without an id is no sample order: its customer stays, real, with it.
      expect(await customer(rows.mergedNoId)).toMatchObject({
        store_id: rows.demo.storeId,
        sample: 0,
      });
      expect(await ordersOf(rows.mergedNoId)).toEqual([rows.mergedNoIdReal]);
      const job = await k()
        .selectFrom("jobs")
        .select(["task", "payload", "priority"])
        .where("job_key", "=", `enrich-customer:${rows.merged}`)
        .executeTakeFirstOrThrow();
      expect({ ...job, payload: JSON.parse(job.payload) }).toEqual({
        task: "enrich-customer",
        payload: { customerId: rows.merged, alerts: false },
        priority: 1,
      });
    });

    it("keeps real customers' own orders and drops only the sample ones attached to them", async () => {
      expect(await customer(rows.realWithSample)).toMatchObject({
        store_id: rows.demo.storeId,
        sample: 0,
        enrichment_status: "enriched",
      });
      expect(await ordersOf(rows.realWithSample)).toEqual([rows.realOwn]);
      expect(await ordersOf(rows.plain)).toEqual([rows.plainOrder]);
      expect(await customer(rows.otherCustomer)).toMatchObject({
        store_id: rows.other.storeId,
        sample: 0,
      });
      expect(
        await k()
          .selectFrom("stores")
          .select("id")
          .where("account_id", "=", rows.other.accountId)
          .execute(),
      ).toEqual([{ id: rows.other.storeId }]);
    });
  });
}
