/**
 * Settings → Integrations → Stores over HTTP, on both engines: connecting through the form
 * (credentials checked by the fake Shopify first; a refused form comes back with its identifiers
 * but never its secrets, and a saved token is never shown again but for its last 4; every
 * refusal's answer is checked for secrets in connect-form.test.ts), a broken connection shown
 * with its error, pause/resume/disconnect with audit events, CSRF and account isolation.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken } from "../../../../test/browser/http-browser.js";
import {
  type FakeShopify,
  shopifyOrder,
  startFakeShopify,
} from "../../../../test/fakes/shopify-admin.js";
import { ENGINES, sqliteEngine } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { runSync, STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { STORES_PATH } from "./stores-view.js";

const connectionIds = (html: string) =>
  [...html.matchAll(/\/settings\/integrations\/stores\/([0-9a-f-]{36})\/disconnect/g)].map(
    (m) => m[1] as string,
  );

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`Settings → Integrations → Stores on ${engine.name}`, () => {
    let app: TestApp;
    let shopify: FakeShopify;
    beforeAll(async () => {
      [app, shopify] = await Promise.all([
        startTestApp(engine, { env: STORE_SYNC_ENV }),
        startFakeShopify(),
      ]);
      shopify.orders.push(shopifyOrder("ada@navy-systems.com", new Date(Date.now() - 86_400_000)));
    });
    afterAll(async () => {
      await app?.close();
      await shopify?.close();
    });

    it("connects a shop by form, shows a broken one with its error, pauses, resumes, disconnects", async () => {
      const { browser, accountId } = await signInNewAccount(app);
      const empty = await browser.page(STORES_PATH);
      expect(empty.html).toContain("No store is connected yet.");

      const wrong = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
        shop: shopify.shop,
        token: "shpat_wrong_token_9876",
        "shopify-backfill": "30",
      });
      expect(wrong.status).toBe(400);
      const wrongHtml = await wrong.text();
      expect(wrongHtml).toContain("Shopify did not accept the connection");
      // The shop domain is kept; the token is not sent back, and the page asks for it again.
      expect(wrongHtml).not.toContain("shpat_wrong_token_9876");
      expect(wrongHtml).toContain(`value="${shopify.shop}"`);
      expect(wrongHtml).toContain("Enter the Admin API access token again");
      expect(wrongHtml).not.toContain('id="no-store-key"');

      const ok = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
        shop: shopify.shop,
        token: shopify.token,
        "shopify-backfill": "30",
      });
      expect(ok.status).toBe(303);
      const listed = await browser.page(ok.headers.get("location") ?? "/");
      expect(listed.html).toContain("Store connected");
      expect(listed.html).toContain(`…${shopify.token.slice(-4)}`);
      expect(listed.html).not.toContain(shopify.token);
      const [id] = connectionIds(listed.html);
      expect(id).toBeDefined();

      shopify.reply({ status: 401, body: '{"errors":"[API] Invalid API key or access token"}' });
      expect((await runSync(app.deps, id as string)).kind).toBe("broken");
      const broken = await browser.page(STORES_PATH);
      expect(broken.html).toContain("Broken");
      expect(broken.html).toContain("the store refused the credentials (401");

      // Another merchant can neither see nor change it.
      const other = await signInNewAccount(app);
      expect(connectionIds((await other.browser.page(STORES_PATH)).html)).toEqual([]);
      const foreign = await other.browser.submit(STORES_PATH, `${STORES_PATH}/${id}/disconnect`);
      expect(foreign.status).toBe(404);

      // Without the form's CSRF token nothing changes.
      const forged = await browser.post(`${STORES_PATH}/${id}/pause`, {});
      expect(forged.status).toBe(403);

      for (const [verb, text] of [
        ["resume", "Sync resumed"],
        ["pause", "Sync paused"],
        ["disconnect", "Store disconnected"],
      ] as const) {
        const res = await browser.submit(STORES_PATH, `${STORES_PATH}/${id}/${verb}`);
        expect(res.status, verb).toBe(303);
        expect((await browser.page(res.headers.get("location") ?? "/")).html).toContain(text);
      }
      expect(connectionIds((await browser.page(STORES_PATH)).html)).toEqual([]);
      const events = await app.deps.db.kysely
        .selectFrom("audit_events")
        .select(["action", "actor"])
        .where("account_id", "=", accountId)
        .where("action", "like", "store.%")
        .orderBy("occurred_at")
        .orderBy("id")
        .execute();
      expect(events.map((e) => e.action)).toEqual([
        "store.connected",
        "store.resumed",
        "store.paused",
        "store.disconnected",
      ]);
      expect(csrfToken(listed.html)).not.toBe("");
    });

    it("Preview cost: the connection's dry run under the form, the form kept, nothing saved", async () => {
      const shop = await startFakeShopify();
      try {
        const now = Date.now();
        shop.orders.push(
          shopifyOrder("preview-1@navy-systems.com", new Date(now - 2 * 86_400_000)),
          shopifyOrder("preview-2@navy-systems.com", new Date(now - 3 * 86_400_000)),
          { ...shopifyOrder("preview-t@navy-systems.com", new Date(now - 3_600_000)), test: true },
        );
        const { browser, accountId } = await signInNewAccount(app);
        const fields = { shop: shop.shop, token: shop.token, "shopify-backfill": "30" };
        const audit = () =>
          app.deps.db.kysely
            .selectFrom("audit_events")
            .select("action")
            .where("account_id", "=", accountId)
            .execute();
        const trail = await audit();
        const refused = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
          ...fields,
          token: "shpat_wrong_preview",
          preview: "1",
        });
        expect(refused.status).toBe(400);
        const refusedHtml = await refused.text();
        expect(refusedHtml).toContain("Shopify did not accept the connection");
        expect(refusedHtml).not.toContain("shpat_wrong_preview");

        const res = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
          ...fields,
          preview: "1",
        });
        expect(res.status).toBe(200);
        const html = await res.text();
        expect(html).toContain('id="cost-preview-shopify"');
        expect(html).toContain("Before connecting: nothing was saved.");
        expect(html).toContain(": 3 orders.");
        expect(html).toContain("New customers: 2 (every order read");
        expect(html).toContain("test order 1");
        expect(html).toContain("Would charge: 2 enrichments, $0.10");
        expect(html).toContain("Provider lookups: at most $0.00 (no monthly budget)");
        // The shop and the days are kept for Connect; the token is entered again.
        expect(html).toContain(`value="${shop.shop}"`);
        expect(html).toContain('value="30"');
        expect(html).not.toContain(shop.token);
        expect(html).toContain("Enter the Admin API access token again and press Connect");
        expect(html).toContain("No store is connected yet.");
        expect(connectionIds(html)).toEqual([]);
        expect(await audit()).toEqual(trail);

        const ok = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, fields);
        expect(ok.status).toBe(303);
        expect(connectionIds((await browser.page(STORES_PATH)).html)).toHaveLength(1);
      } finally {
        await shop.close();
      }
    });

    it("connects a Dev Dashboard app by client id and secret, says when the backfill is cut, shows skips by reason", async () => {
      const shop = await startFakeShopify({ scopes: "read_orders,read_customers" });
      try {
        shop.orders.push({
          ...shopifyOrder("test@navy-systems.com", new Date(Date.now() - 3_600_000)),
          test: true,
        });
        const { browser } = await signInNewAccount(app);
        const both = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
          shop: shop.shop,
          client_id: shop.clientId,
          token: shop.token,
          "shopify-backfill": "90",
        });
        expect(both.status).toBe(400);
        const bothHtml = await both.text();
        expect(bothHtml).toContain("client id and client secret, or");
        expect(bothHtml).toContain(`value="${shop.clientId}"`);
        expect(bothHtml).not.toContain(shop.token);

        const ok = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
          shop: shop.shop,
          client_id: shop.clientId,
          client_secret: shop.clientSecret,
          "shopify-backfill": "90",
        });
        expect(ok.status).toBe(303);
        const listed = await browser.page(ok.headers.get("location") ?? "/");
        expect(listed.html).toContain("only the last 60 days of orders");
        expect(listed.html).toContain(`…${shop.clientSecret.slice(-4)}`);
        expect(listed.html).not.toContain(shop.clientSecret);
        const [id] = connectionIds(listed.html);
        expect((await runSync(app.deps, id as string)).kind).toBe("synced");
        const after = await browser.page(STORES_PATH);
        expect(after.html).toContain("(1 skipped)");
        expect(after.html).toContain("test order: 1");
      } finally {
        await shop.close();
      }
    });
  });
}

describe("the Stores page without STORE_TOKEN_KEY, and a store that cannot be reached", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(sqliteEngine);
  });
  afterAll(() => app?.close());

  it("says before anyone types that connecting needs STORE_TOKEN_KEY, and disables the forms", async () => {
    const { browser } = await signInNewAccount(app);
    const { html } = await browser.page(STORES_PATH);
    expect(html).toContain('id="no-store-key"');
    expect(html).toContain("STORE_TOKEN_KEY");
    expect(html.match(/<fieldset class="plain" disabled>/g)).toHaveLength(2);
    const refused = await browser.submit(STORES_PATH, `${STORES_PATH}/shopify`, {
      shop: "acme",
      token: "shpat_something_0123456789",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("Connecting a store needs STORE_TOKEN_KEY");
    expect(refusedHtml).not.toContain("shpat_something_0123456789");
  });
});

describe("an unreachable store, in the merchant's words", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(sqliteEngine, { env: STORE_SYNC_ENV });
  });
  afterAll(() => app?.close());

  it("says the store could not be reached without the resolver's error codes, and keeps the form but its secret", async () => {
    const { browser } = await signInNewAccount(app);
    const res = await browser.submit(STORES_PATH, `${STORES_PATH}/woocommerce`, {
      url: "https://no-such-store.invalid",
      key: "ck_abc",
      secret: "cs_unreachable_0123456789",
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("The WooCommerce store could not be reached to check the credentials");
    expect(html).not.toMatch(/getaddrinfo|ENOTFOUND|EAI_AGAIN/);
    expect(html).toContain('value="https://no-such-store.invalid"');
    expect(html).toContain('value="ck_abc"');
    expect(html).not.toContain("cs_unreachable_0123456789");
    expect(html).toContain("Enter the consumer secret again");
  });
});
