/**
 * The Shopify destination end to end, on both engines, against a fake GraphQL Admin API that
 * answers as Shopify does (userErrors, ACCESS_DENIED, THROTTLED with its cost): adding checks the
 * token's write_customers scope; a VIP known to the store sync gets the tag and the
 * velvet.vip_score metafield on their Shopify customer, a throttled call waits without spending
 * an attempt, customers Shopify does not know are not sent, and forgetting removes both, as does
 * a re-judge that finds a VIP under the line (`customer.not_vip`); back over it, they are back;
 * with tiers, the VIP's tier tag goes on and the account's other tier tags come off.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import {
  type FakeShopifyCustomers,
  startFakeShopifyCustomers,
} from "../../../test/fakes/shopify-customers.js";
import { servingVersion } from "../../../test/fakes/shopify-version.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { insertShopifyConnection, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { createWorker, type Worker } from "../../jobs/worker.js";
import { allTasks } from "../../tasks.js";
import { updateAccount } from "../accounts/update-account.js";
import { systemActor } from "../audit/audit-actor.js";
import { createStoreWindows } from "../enrichment/offline/store-order-window.js";
import { rejudgeCustomer } from "../enrichment/rejudge/rejudge-customer.js";
import { eraseCustomer } from "../privacy/erase-customer.js";
import { addDestination } from "./add-destination.js";
import { TAG_VIP } from "./shopify/shopify-graphql.js";
import { testDestination } from "./test-destination.js";

const actor = systemActor("test");

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Shopify destination on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let shopify: FakeShopifyCustomers;
    let app: TestApp;
    let account: TestAccount;
    let worker: Worker;
    let n = 0;

    /** A connected store (as store-sync saves one); `shop` differs per connection of a store. */
    const connection = (token: string, shop = shopify.shop) =>
      insertShopifyConnection(app.deps, account, token, shop);

    beforeAll(async () => {
      [fakes, shopify] = await Promise.all([startFakeProviders(), startFakeShopifyCustomers()]);
      const env = { ...fakes.env, ...STORE_SYNC_ENV, GRAVATAR_RATE_LIMIT_PER_MIN: "60000" };
      // No worker yet: each test gives its customer a Shopify id (as the sync does) first.
      app = await startTestApp(engine, { env });
      account = await app.createAccount({ name: "Acme Store" });
      // Every task but the periodic re-judge scan: the re-judge test below moves the line and
      // re-judges by hand, and the scan (which re-judges a customer a few seconds after their
      // order) would otherwise take the promotion or demotion first, at a time of its choosing.
      const tasks = allTasks(app.deps).filter((t) => t.task !== "rejudge-orders");
      worker = createWorker(app.deps, tasks, { pollIntervalMs: 50 });
    });
    afterAll(async () => {
      await worker?.stop();
      await app?.close();
      await Promise.all([fakes?.close(), shopify?.close()]);
    });

    /** An order from a customer the store sync knows as Shopify customer `shopifyId`. */
    async function vipFromShopify(shopifyId: string | null) {
      const email = `grace-${engine.name}-${++n}@navy-systems.com`;
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: `o-${n}`, total: "1250.00", currency: "USD" },
      });
      const { customerId } = (await res.json()) as { customerId: string };
      await app.deps.db.kysely
        .updateTable("customers")
        .set({ shopify_customer_id: shopifyId })
        .where("id", "=", customerId)
        .execute();
      if (shopifyId !== null)
        shopify.customers.set(shopifyId, { tags: ["wholesale"], metafields: {} });
      return customerId;
    }
    const deliveries = (customerId: string) =>
      app.deps.db.kysely
        .selectFrom("destination_deliveries")
        .selectAll()
        .where("event_key", "like", `%:${customerId}`)
        .execute();

    it("refuses a store whose token lacks write_customers, saying so", async () => {
      const readOnly = await connection(
        shopify.readOnlyToken,
        shopify.shop.replace("127.0.0.1", "localhost"),
      );
      await expect(
        addDestination(app.deps, {
          accountId: account.accountId,
          kind: "shopify",
          fields: { connectionId: readOnly },
          actor,
        }),
      ).rejects.toThrow("lacks the write_customers scope");
    });

    it("tags a VIP's Shopify customer with their score, waits out THROTTLED, untags on forget", async () => {
      const connectionId = await connection(shopify.token);
      const added = await addDestination(app.deps, {
        accountId: account.accountId,
        kind: "shopify",
        fields: { connectionId, tag: "VIP" },
        actor,
      });
      expect(added.events).toEqual(["customer.vip", "customer.forgotten"]);
      expect(
        await testDestination(app.deps, {
          accountId: account.accountId,
          destinationId: added.destinationId,
        }),
      ).toMatchObject({ outcome: "delivered", statusCode: 200 });
      const shopifyId = String(7000 + n);
      const customerId = await vipFromShopify(shopifyId);
      const unknown = await vipFromShopify(null);
      shopify.throttle(1);
      worker.start();

      await waitFor(
        "tagged",
        async () => (await deliveries(customerId))[0]?.status === "delivered",
        20_000,
      );
      const customer = shopify.customers.get(shopifyId);
      expect(customer?.tags).toEqual(["wholesale", "VIP"]);
      const score = (
        await app.deps.db.kysely
          .selectFrom("enrichments")
          .select("score")
          .where("customer_id", "=", customerId)
          .executeTakeFirstOrThrow()
      ).score;
      expect(customer?.metafields["velvet.vip_score"]).toEqual({
        type: "number_integer",
        value: String(score),
      });
      const [row] = await deliveries(customerId);
      expect(row?.attempts).toBe(1);
      const attempts = await app.deps.db.kysely
        .selectFrom("destination_attempts")
        .select(["outcome", "error"])
        .where("delivery_id", "=", row?.id ?? "")
        .orderBy("attempted_at")
        .execute();
      expect(attempts.map((a) => a.outcome)).toEqual(["retry", "delivered"]);
      expect(attempts[0]?.error).toContain("THROTTLED");

      // A VIP Shopify does not know (from the API alone) is not sent there.
      await waitFor("enriched", async () => {
        const e = await app.deps.db.kysely
          .selectFrom("enrichments")
          .select("vip")
          .where("customer_id", "=", unknown)
          .executeTakeFirst();
        return e?.vip === 1;
      });
      expect(await deliveries(unknown)).toEqual([]);

      await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId },
        actor,
      });
      await waitFor(
        "untagged",
        () => !(shopify.customers.get(shopifyId)?.tags ?? []).includes("VIP"),
        20_000,
      );
      expect(shopify.customers.get(shopifyId)).toEqual({ tags: ["wholesale"], metafields: {} });
      // Every call named the current Admin API version, and Shopify answered with that one.
      expect(new Set(shopify.requests.map((r) => JSON.stringify(r.version)))).toEqual(
        new Set([JSON.stringify({ asked: "2026-10", served: "2026-10" })]),
      );
    });

    it("untags a VIP a re-judge finds under the line, and tags them again back over it", async () => {
      // The first test added the destination and started the worker.
      const shopifyId = String(7000 + n + 1);
      const customerId = await vipFromShopify(shopifyId);
      const tags = () => shopify.customers.get(shopifyId)?.tags ?? [];
      await waitFor("tagged", () => tags().includes("VIP"), 20_000);
      const rejudge = () =>
        rejudgeCustomer(app.deps, createStoreWindows(), customerId, {
          historical: false,
          requestId: null,
        });
      // The line moved above the customer's score: their next re-judge finds them under it.
      await updateAccount(app.deps.db.kysely, account.accountId, { vipThreshold: 100 });
      expect((await rejudge()).kind).toBe("demoted");
      await waitFor("untagged", () => !tags().includes("VIP"), 20_000);
      expect(shopify.customers.get(shopifyId)).toEqual({ tags: ["wholesale"], metafields: {} });
      await updateAccount(app.deps.db.kysely, account.accountId, { vipThreshold: 70 });
      expect((await rejudge()).kind).toBe("promoted");
      await waitFor("tagged again", () => tags().includes("VIP"), 20_000);
      const events = await app.deps.db.kysely
        .selectFrom("destination_deliveries")
        .select("event")
        .where("customer_id", "=", customerId)
        .orderBy("created_at")
        .execute();
      expect(events.map((e) => e.event)).toEqual([
        "customer.vip",
        "customer.not_vip",
        "customer.vip",
      ]);
    });

    it("fails a delivery with Shopify's userErrors when the customer is gone there", async () => {
      const customerId = await vipFromShopify(String(9000 + n));
      shopify.customers.clear();
      await waitFor(
        "failed",
        async () => (await deliveries(customerId))[0]?.status === "failed",
        20_000,
      );
      expect((await deliveries(customerId))[0]?.last_error).toBe(
        "tagsAdd: Customer does not exist; metafieldsSet: Owner does not exist.",
      );
    });

    it("puts the VIP's tier tag on and takes the account's other tier tags off, all off on forget", async () => {
      // A tier everyone reaches, and one only a perfect score does: the VIP is in one of them.
      await updateAccount(app.deps.db.kysely, account.accountId, {
        tiers: [
          { name: "Perfect", floor: 100 },
          { name: "Member", floor: 0 },
        ],
      });
      const shopifyId = String(11_000 + n);
      const customerId = await vipFromShopify(shopifyId);
      // Tags from an earlier tier, as if the customer had been in each before.
      shopify.customers.set(shopifyId, {
        tags: ["wholesale", "Velvet tier: Perfect", "Velvet tier: Member"],
        metafields: {},
      });
      await waitFor(
        "tier tagged",
        async () => (await deliveries(customerId))[0]?.status === "delivered",
        20_000,
      );
      const [delivery] = await deliveries(customerId);
      const tier = (JSON.parse(delivery?.body ?? "{}") as { data: { tier: string } }).data.tier;
      expect(["Perfect", "Member"]).toContain(tier);
      const other = tier === "Perfect" ? "Member" : "Perfect";
      expect(shopify.customers.get(shopifyId)?.tags).toEqual(
        expect.arrayContaining(["wholesale", "VIP", `Velvet tier: ${tier}`]),
      );
      expect(shopify.customers.get(shopifyId)?.tags).not.toContain(`Velvet tier: ${other}`);

      await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId },
        actor,
      });
      await waitFor(
        "tier untagged",
        () => (shopify.customers.get(shopifyId)?.tags ?? []).length === 1,
        20_000,
      );
      expect(shopify.customers.get(shopifyId)).toEqual({ tags: ["wholesale"], metafields: {} });
      await updateAccount(app.deps.db.kysely, account.accountId, { tiers: [] });
    });
  });
}

describe("the fake Shopify's version and metafieldsSet rules", () => {
  it("falls forward from an unsupported version to the oldest supported one, and takes 25 metafields at most", async () => {
    const shopify = await startFakeShopifyCustomers({ now: () => Date.UTC(2026, 10, 27) });
    try {
      shopify.customers.set("1", { tags: [], metafields: {} });
      const ask = (version: string, count: number) =>
        fetch(`${shopify.shop}/admin/api/${version}/graphql.json`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-shopify-access-token": shopify.token },
          body: JSON.stringify({
            query: TAG_VIP,
            variables: {
              id: "gid://shopify/Customer/1",
              tags: ["VIP"],
              metafields: Array.from({ length: count }, (_, i) => ({
                ownerId: "gid://shopify/Customer/1",
                namespace: "velvet",
                key: `k${i}`,
                type: "number_integer",
                value: "1",
              })),
            },
          }),
        });
      // 2025-10 was supported until 2026-10-01; the oldest supported after it is 2026-01.
      const fell = await ask("2025-10", 25);
      expect(fell.headers.get("x-shopify-api-version")).toBe("2026-01");
      expect(shopify.requests.at(-1)?.version).toEqual({ asked: "2025-10", served: "2026-01" });
      expect(servingVersion("2025-10", Date.UTC(2026, 10, 27))).toBe("2026-01");
      expect(servingVersion("2026-10", Date.UTC(2026, 10, 27))).toBe("2026-10");
      expect(servingVersion("2024-01", Date.UTC(2026, 10, 27))).toBe("2026-01");
      expect(Object.keys(shopify.customers.get("1")?.metafields ?? {})).toHaveLength(25);

      const over = (await (await ask("2026-10", 26)).json()) as {
        data: { metafieldsSet: { userErrors: { message: string }[] } };
      };
      expect(over.data.metafieldsSet.userErrors[0]?.message).toBe(
        "Exceeded the maximum metafields input limit of 25.",
      );
      expect(Object.keys(shopify.customers.get("1")?.metafields ?? {})).toHaveLength(25);
    } finally {
      await shopify.close();
    }
  });
});
