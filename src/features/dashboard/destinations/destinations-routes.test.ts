/**
 * Settings → Integrations → Destinations over HTTP, on both engines: adding a webhook by form
 * (refused for a URL that is not http(s); the secret shown once, then only its last 4), a test that a
 * Standard Webhooks library verifies, the delivery log with "Send again" under the same
 * webhook-id, removal with its audit trail, CSRF and account isolation.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../../test/fakes/webhook-receiver.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { waitFor } from "../../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { STORE_SYNC_ENV } from "../../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { DESTINATIONS_PATH } from "./destinations-view.js";

const destinationIds = (html: string) =>
  [...html.matchAll(/\/settings\/integrations\/destinations\/([0-9a-f-]{36})\/remove/g)].map(
    (m) => m[1] as string,
  );

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `Settings → Integrations → Destinations on ${engine.name}`,
    () => {
      let app: TestApp;
      let receiver: FakeWebhookReceiver;
      beforeAll(async () => {
        [app, receiver] = await Promise.all([
          startTestApp(engine, { env: STORE_SYNC_ENV, worker: true }),
          startWebhookReceiver(),
        ]);
      });
      afterAll(async () => {
        await app?.close();
        await receiver?.close();
      });

      it("adds a webhook, tests it, resends a delivery and removes it", async () => {
        const { browser, accountId, apiKey } = await signInNewAccount(app);
        expect((await browser.page(DESTINATIONS_PATH)).html).toContain("No destination yet.");

        // WEBHOOKS_ALLOW_PRIVATE is on for the loopback receiver: a non-http scheme is refused.
        const ftp = await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/webhook`, {
          url: "ftp://example.com/hook",
          events: "customer.enriched",
        });
        expect(ftp.status).toBe(400);
        expect(await ftp.text()).toContain("must use https or http");

        const added = await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/webhook`, {
          url: receiver.url,
          events: "customer.enriched",
        });
        expect(added.status).toBe(200);
        const addedHtml = await added.text();
        const secret = addedHtml.match(/whsec_[A-Za-z0-9+/=]+/)?.[0] ?? "";
        expect(secret).toMatch(/^whsec_/);
        const listed = await browser.page(DESTINATIONS_PATH);
        expect(listed.html).not.toContain(secret);
        expect(listed.html).toContain(`…${secret.slice(-4)}`);
        const [id] = destinationIds(listed.html) as [string];

        const tested = await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/${id}/test`);
        expect(await tested.text()).toContain("Test delivered (204)");
        const verifier = new Webhook(secret);
        const [test] = receiver.requests;
        expect(verifier.verify(test?.raw ?? "", test?.headers ?? {})).toMatchObject({
          type: "velvet.test",
        });

        // A customer's enrichment reaches it; the log shows the delivery, and it can go again.
        await app.submit(apiKey, { email: "ada@example.com", firstName: "Ada", lastName: "L" });
        // Delivered and recorded (a resend while the attempt is in flight is that attempt).
        await waitFor(
          "delivered",
          async () =>
            (
              await app.deps.db.kysely
                .selectFrom("destination_deliveries")
                .select("status")
                .where("account_id", "=", accountId)
                .executeTakeFirst()
            )?.status === "delivered",
          20_000,
        );
        const log = await browser.page(`${DESTINATIONS_PATH}/${id}`);
        expect(log.html).toContain("customer.enriched");
        const resend = log.html.match(/action="([^"]+\/resend)"/)?.[1] ?? "";
        const again = await browser.submit(`${DESTINATIONS_PATH}/${id}`, resend);
        expect(again.status).toBe(303);
        await waitFor("sent again", () => receiver.requests.length === 3, 20_000);
        const [, first, second] = receiver.requests;
        expect(second?.headers["webhook-id"]).toBe(first?.headers["webhook-id"]);
        expect(second?.raw).toBe(first?.raw);
        verifier.verify(second?.raw ?? "", second?.headers ?? {});

        // Another merchant can neither see nor change it; without the CSRF token nothing changes.
        const other = await signInNewAccount(app);
        expect(destinationIds((await other.browser.page(DESTINATIONS_PATH)).html)).toEqual([]);
        expect((await other.browser.page(`${DESTINATIONS_PATH}/${id}`)).res.status).toBe(404);
        const foreign = await other.browser.submit(
          DESTINATIONS_PATH,
          `${DESTINATIONS_PATH}/${id}/remove`,
        );
        expect(foreign.status).toBe(404);
        expect((await browser.post(`${DESTINATIONS_PATH}/${id}/remove`, {})).status).toBe(403);

        const removed = await browser.submit(
          DESTINATIONS_PATH,
          `${DESTINATIONS_PATH}/${id}/remove`,
        );
        expect(removed.status).toBe(303);
        expect(destinationIds((await browser.page(DESTINATIONS_PATH)).html)).toEqual([]);
        const events = await app.deps.db.kysely
          .selectFrom("audit_events")
          .select("action")
          .where("account_id", "=", accountId)
          .where("action", "like", "destination.%")
          .orderBy("occurred_at")
          .orderBy("id")
          .execute();
        expect(events.map((e) => e.action)).toEqual(["destination.added", "destination.removed"]);
      });

      it("adds Klaviyo with a private key, shown only by its last 4", async () => {
        const { browser } = await signInNewAccount(app);
        const wrong = await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/klaviyo`, {
          apiKey: "abc",
        });
        expect(wrong.status).toBe(400);
        expect(await wrong.text()).toContain("give a private API key (pk_…)");
        const key = "pk_0123456789abcdefghij0123wxyz";
        const ok = await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/klaviyo`, {
          apiKey: key,
        });
        expect(ok.status).toBe(303);
        const listed = await browser.page(ok.headers.get("location") ?? "/");
        expect(listed.html).toContain("Destination added");
        expect(listed.html).toContain("Klaviyo (key …wxyz)");
        expect(listed.html).not.toContain(key);
        // The Klaviyo revision Velvet speaks is current: no warning.
        expect(listed.html).not.toContain("data-api-version");
        // Shopify needs a connected store first; another account's (or no) connection is refused.
        expect(listed.html).toContain("Connect a Shopify store first");
        const shopify = await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/shopify`, {
          connectionId: "0193a0e4-0000-7000-8000-000000000000",
          tag: "VIP",
        });
        expect(shopify.status).toBe(400);
        expect(await shopify.text()).toContain("No connected Shopify store");
      });

      it("warns of an ageing Klaviyo revision to the accounts using Klaviyo, once the clock passes its warning date", async () => {
        // 2027-11-01: Klaviyo's 2026-10-15 revision is deprecated (over a year old).
        const later = await startTestApp(engine, {
          database: app.database,
          env: STORE_SYNC_ENV,
          clock: { now: () => Date.UTC(2027, 10, 1) },
        });
        try {
          const { browser } = await signInNewAccount(later);
          expect((await browser.page(DESTINATIONS_PATH)).html).not.toContain("data-api-version");
          await browser.submit(DESTINATIONS_PATH, `${DESTINATIONS_PATH}/klaviyo`, {
            apiKey: "pk_0123456789abcdefghij0123abcd",
          });
          const listed = await browser.page(DESTINATIONS_PATH);
          expect(listed.html).toContain("data-api-version");
          expect(listed.html).toContain(
            "Klaviyo API revision 2026-10-15 (KLAVIYO_REVISION) is more than 12 months old: Klaviyo stops serving it on 2028-10-15",
          );
        } finally {
          await later.close();
        }
      });
    },
  );
}
