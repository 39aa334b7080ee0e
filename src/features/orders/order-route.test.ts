/**
 * Successful submissions to POST /api/v1/orders: the response shape, what is stored, customer
 * and order de-duplication, and the 409 when an order id belongs to someone else.
 * Enrichment states and charges are in order-enrichment.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  request,
  storeRows,
  submitJson,
  UUID_RE,
  uniqueEmail,
  uniqueOrderId,
  validBody,
} from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`POST /api/v1/orders on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    const db = () => app.deps.db.kysely;
    const customer = (id: string) =>
      db().selectFrom("customers").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    const order = (id: string) =>
      db().selectFrom("orders").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

    it("answers exactly {success, customerId, orderId, enrichmentStatus} with UUIDs", async () => {
      const res = await app.submit(account.apiKey, validBody({ order: { id: uniqueOrderId() } }));
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      const body = (await res.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual([
        "customerId",
        "enrichmentStatus",
        "orderId",
        "success",
      ]);
      expect(body).toMatchObject({ success: true, enrichmentStatus: "queued" });
      expect(body.customerId).toMatch(UUID_RE);
      expect(body.orderId).toMatch(UUID_RE);
    });

    it("leaves orderId out (not null) without order data, also for an empty order", async () => {
      for (const extra of [{}, { order: null }, { order: {} }, { order: { currency: "EUR" } }]) {
        const res = await app.submit(account.apiKey, validBody(extra));
        expect(res.status).toBe(200);
        const text = await res.text();
        expect(text, JSON.stringify(extra)).not.toContain("orderId");
        expect(Object.keys(JSON.parse(text)).sort()).toEqual([
          "customerId",
          "enrichmentStatus",
          "success",
        ]);
      }
    });

    it("stores the customer as given, with the e-mail also normalised", async () => {
      const email = `Jane.${uniqueEmail("Doe").toUpperCase()}`;
      const { body } = await submitJson(app, account.apiKey, {
        email: `  ${email} `,
        firstName: " Jane ",
        lastName: "Doe",
        phone: "+14155550100",
        address: { city: "San Francisco", state: "CA", zipcode: "94105", country: "US" },
      });
      expect(await customer(body.customerId as string)).toMatchObject({
        store_id: account.storeId,
        email,
        email_normalized: email.toLowerCase(),
        first_name: "Jane",
        last_name: "Doe",
        phone: "+14155550100",
        address_city: "San Francisco",
        address_state: "CA",
        address_zipcode: "94105",
        address_country: "US",
        enrichment_status: "pending",
      });
    });

    it("stores the total as the exact decimal string and the currency upper-case", async () => {
      const cases = [
        { total: "129.90", currency: "eur", stored: ["129.90", "EUR"] },
        { total: "0", currency: undefined, stored: ["0", "USD"] },
        {
          total: "12345678901234567890.123456789",
          currency: "Jpy",
          stored: ["12345678901234567890.123456789", "JPY"],
        },
        { total: undefined, currency: "", stored: [null, "USD"] },
      ];
      for (const c of cases) {
        const { status, body } = await submitJson(
          app,
          account.apiKey,
          validBody({
            order: { id: uniqueOrderId(), number: "#1001", total: c.total, currency: c.currency },
          }),
        );
        expect(status).toBe(200);
        const row = await order(body.orderId as string);
        expect([row.total, row.currency]).toEqual(c.stored);
        expect(row.order_number).toBe("#1001");
        expect(row.customer_id).toBe(body.customerId);
      }
    });

    it("reuses the customer for the same e-mail in any case or surrounding whitespace", async () => {
      const email = uniqueEmail("Reuse");
      const first = await submitJson(app, account.apiKey, validBody({ email }));
      for (const variant of [email.toUpperCase(), ` ${email.toLowerCase()}\t`, email]) {
        const again = await submitJson(
          app,
          account.apiKey,
          validBody({ email: variant, firstName: "Other" }),
        );
        expect(again.status).toBe(200);
        expect(again.body.customerId).toBe(first.body.customerId);
      }
      // The first submission's details stay: a repeat does not overwrite the customer.
      expect((await customer(first.body.customerId as string)).first_name).toBe("Jane");
    });

    it("returns the same order, unchanged, for the same order.id", async () => {
      const email = uniqueEmail();
      const id = uniqueOrderId();
      const first = await submitJson(app, account.apiKey, {
        ...validBody({ email }),
        order: { id, number: "A-1", total: "250.00", currency: "USD" },
      });
      const again = await submitJson(app, account.apiKey, {
        ...validBody({ email: email.toUpperCase() }),
        order: { id, number: "B-2", total: "999.99", currency: "EUR" },
      });
      expect(again).toEqual({ status: 200, body: { ...first.body, enrichmentStatus: "queued" } });
      expect(await order(first.body.orderId as string)).toMatchObject({
        external_order_id: id,
        order_number: "A-1",
        total: "250.00",
        currency: "USD",
      });
      const orders = await db()
        .selectFrom("orders")
        .select("id")
        .where("external_order_id", "=", id)
        .execute();
      expect(orders).toHaveLength(1);
    });

    it("creates a new order each time when order.id is not given", async () => {
      const email = uniqueEmail();
      const a = await submitJson(
        app,
        account.apiKey,
        validBody({ email, order: { total: "5.00" } }),
      );
      const b = await submitJson(
        app,
        account.apiKey,
        validBody({ email, order: { total: "5.00" } }),
      );
      expect(a.body.orderId).toMatch(UUID_RE);
      expect(b.body.orderId).toMatch(UUID_RE);
      expect(b.body.orderId).not.toBe(a.body.orderId);
    });

    it("keeps customers and orders of different stores apart", async () => {
      const other = await app.createAccount();
      const email = uniqueEmail();
      const id = uniqueOrderId();
      const body = validBody({ email, order: { id } });
      const mine = await submitJson(app, account.apiKey, body);
      const theirs = await submitJson(app, other.apiKey, body);
      expect(theirs.status).toBe(200);
      expect(theirs.body.customerId).not.toBe(mine.body.customerId);
      expect(theirs.body.orderId).not.toBe(mine.body.orderId);
      expect(theirs.body.enrichmentStatus).toBe("queued");
    });

    it("answers 409 when order.id belongs to a different customer, writing nothing", async () => {
      const store = await app.createAccount();
      const id = uniqueOrderId();
      const owner = await submitJson(app, store.apiKey, validBody({ order: { id } }));
      expect(owner.status).toBe(200);
      const before = await storeRows(app.deps.db, store.storeId);
      expect(before).toEqual({ customers: 1, orders: 1, charges: 1, jobs: 1 });

      const newcomer = uniqueEmail("intruder");
      const res = await submitJson(
        app,
        store.apiKey,
        validBody({ email: newcomer, order: { id } }),
      );
      expect(res.status).toBe(409);
      expect(res.body).toEqual({
        error: "Conflict",
        message: `order.id ${JSON.stringify(id)} already belongs to a different customer of this store`,
      });
      // The new customer, its job and its charge were rolled back with the refused order.
      expect(await storeRows(app.deps.db, store.storeId)).toEqual(before);
      const ghost = await db()
        .selectFrom("customers")
        .select("id")
        .where("email_normalized", "=", newcomer)
        .executeTakeFirst();
      expect(ghost).toBeUndefined();
    });

    it("ignores unknown fields and accepts application/json with a charset", async () => {
      const res = await request(app, {
        headers: {
          "content-type": "application/json; charset=utf-8",
          "x-api-key": account.apiKey,
        },
        body: JSON.stringify(validBody({ loyalty: { tier: "gold" }, tags: [1], success: false })),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ success: true, enrichmentStatus: "queued" });
    });

    it("accepts an e-mail of exactly 254 characters", async () => {
      const domain = `${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(40)}.com`;
      const email = `${"l".repeat(254 - domain.length - 1)}@${domain}`;
      expect(email).toHaveLength(254);
      const res = await submitJson(app, account.apiKey, validBody({ email }));
      expect(res.status).toBe(200);
      expect((await customer(res.body.customerId as string)).email).toBe(email);
    });
  });
}
