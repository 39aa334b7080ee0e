/**
 * A receiver that turns Velvet away, end to end on both engines, with a real receiver on
 * loopback and the in-process worker: a 410 Gone disables the webhook (audited as the system's
 * doing, shown on the Destinations page with when and the answer); the next events are recorded
 * as failed deliveries and not sent; the merchant enables it again with the page's button
 * (audited) and the next event goes, while a recorded one can be sent again. A 3xx fails the
 * delivery at once, with no second attempt.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { DESTINATIONS_PATH } from "../dashboard/destinations/destinations-view.js";
import { listDestinations } from "./list-destinations.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a webhook that answers 410 or 3xx on ${engine.name}`, () => {
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

    /** A merchant signed in with one webhook destination, added through the page. */
    const merchant = async () => {
      const signedIn = await signInNewAccount(app);
      const added = await signedIn.browser.submit(
        DESTINATIONS_PATH,
        `${DESTINATIONS_PATH}/webhook`,
        { url: receiver.url, events: "customer.enriched" },
      );
      expect(added.status).toBe(200);
      const [destination] = await listDestinations(app.deps.db.kysely, signedIn.accountId);
      if (destination === undefined) throw new Error("no destination");
      return { ...signedIn, destinationId: destination.destinationId };
    };
    const deliveryOf = async (accountId: string, email: string) =>
      app.deps.db.kysely
        .selectFrom("destination_deliveries as d")
        .innerJoin("customers as c", "c.id", "d.customer_id")
        .select(["d.id", "d.status", "d.attempts", "d.last_error"])
        .where("d.account_id", "=", accountId)
        .where("c.email", "=", email)
        .executeTakeFirst();
    const settled = (accountId: string, email: string) =>
      waitFor(
        `${email} settled`,
        async () => {
          const d = await deliveryOf(accountId, email);
          return d !== undefined && d.status !== "pending";
        },
        20_000,
      );
    const toReceiver = (email: string) => receiver.requests.filter((r) => r.raw.includes(email));

    it("410 Gone disables it; events are recorded, not sent, until the merchant enables it", async () => {
      const { browser, apiKey, accountId, destinationId } = await merchant();
      const first = `gone-1-${engine.name}@example.com`;
      receiver.reply({ status: 410, body: "endpoint removed" });
      await app.submit(apiKey, { email: first, firstName: "Ada", lastName: "L" });
      await settled(accountId, first);
      expect(await deliveryOf(accountId, first)).toMatchObject({ status: "failed", attempts: 1 });
      const [disabled] = await listDestinations(app.deps.db.kysely, accountId);
      expect(disabled?.disabledReason).toBe("410 Gone");
      expect(disabled?.disabledAt).toMatch(/^\d{4}-\d\d-\d\dT/);

      // The page says so, with when and the answer, and offers to enable it.
      const page = await browser.page(DESTINATIONS_PATH);
      expect(page.html).toContain("Disabled");
      expect(page.html).toContain("410 Gone");
      // The receiver's body stays in the attempt's record, out of the page and the audit trail.
      expect(page.html).not.toContain("endpoint removed");
      expect(page.html).toContain(`data-disabled-at="${disabled?.disabledAt}"`);
      expect(page.html).toContain(`${DESTINATIONS_PATH}/${destinationId}/enable`);

      // While disabled: recorded as failed, saying why, and nothing reaches the receiver.
      const second = `gone-2-${engine.name}@example.com`;
      await app.submit(apiKey, { email: second, firstName: "Bo", lastName: "L" });
      await waitFor("recorded", async () => (await deliveryOf(accountId, second)) !== undefined);
      const skipped = await deliveryOf(accountId, second);
      expect(skipped).toMatchObject({ status: "failed", attempts: 0 });
      expect(skipped?.last_error).toMatch(
        /^not sent: the destination was disabled at .*\(410 Gone\)/,
      );
      expect(toReceiver(second)).toHaveLength(0);

      // Enabled again with the page's button: audited, and the next event is sent.
      const enabled = await browser.submit(
        DESTINATIONS_PATH,
        `${DESTINATIONS_PATH}/${destinationId}/enable`,
      );
      expect(enabled.status).toBe(303);
      const after = await browser.page(enabled.headers.get("location") ?? "/");
      expect(after.html).toContain("Destination enabled");
      expect(after.html).not.toContain(`${destinationId}/enable`);
      const third = `gone-3-${engine.name}@example.com`;
      await app.submit(apiKey, { email: third, firstName: "Cy", lastName: "L" });
      await settled(accountId, third);
      expect(await deliveryOf(accountId, third)).toMatchObject({ status: "delivered" });

      // What was recorded while it was off goes with "Send again".
      const log = await browser.page(`${DESTINATIONS_PATH}/${destinationId}`);
      const resend = log.html.match(
        new RegExp(`action="([^"]+/deliveries/${skipped?.id}/resend)"`),
      )?.[1];
      expect(resend).toBeDefined();
      await browser.submit(`${DESTINATIONS_PATH}/${destinationId}`, resend ?? "");
      await waitFor("sent again", async () => toReceiver(second).length === 1, 20_000);

      const audit = await app.deps.db.kysely
        .selectFrom("audit_events")
        .select(["action", "actor_kind", "details"])
        .where("account_id", "=", accountId)
        .where("action", "like", "destination.%")
        .orderBy("occurred_at")
        .orderBy("id")
        .execute();
      expect(audit.map((a) => [a.action, a.actor_kind])).toEqual([
        ["destination.added", "user"],
        ["destination.disabled", "system"],
        ["destination.enabled", "user"],
      ]);
      expect(JSON.parse(audit[1]?.details ?? "{}")).toEqual({ reason: "410 Gone" });
    });

    it("a redirect fails the delivery at once: one attempt, no retry", async () => {
      const { apiKey, accountId } = await merchant();
      const email = `moved-${engine.name}@example.com`;
      receiver.reply({ status: 308, headers: { location: "https://elsewhere.example/hook" } });
      await app.submit(apiKey, { email, firstName: "Di", lastName: "L" });
      await settled(accountId, email);
      const delivery = await deliveryOf(accountId, email);
      expect(delivery).toMatchObject({ status: "failed", attempts: 1 });
      expect(delivery?.last_error).toMatch(/^308: redirects are not followed/);
      // Given up after that attempt (attempts = max_attempts), not scheduled again.
      const job = () =>
        app.deps.db.kysely
          .selectFrom("jobs")
          .select(["attempts", "max_attempts", "last_error", "locked_by"])
          .where("job_key", "=", `destination:${delivery?.id}`)
          .executeTakeFirst();
      await waitFor("given up", async () => (await job())?.locked_by === null);
      expect((await job())?.attempts).toBe((await job())?.max_attempts);
      expect((await job())?.last_error).toMatch(/redirects are not followed/);
      expect(toReceiver(email)).toHaveLength(1);
      // Not disabled: a redirect is the merchant's URL to fix, not the receiver leaving.
      const [destination] = await listDestinations(app.deps.db.kysely, accountId);
      expect(destination?.disabledAt).toBeNull();
    });
  });
}
