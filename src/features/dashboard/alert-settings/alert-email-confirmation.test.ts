/**
 * No mail relay, end to end: an alert address added in the dashboard receives a confirmation
 * link (real SMTP server) and no alert until it is confirmed; a VIP found meanwhile alerts the
 * confirmed channel (chat) at once and is e-mailed once the address is confirmed, so none is
 * lost. Links are single use; "send again" replaces the link.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken, HttpBrowser } from "../../../../test/browser/http-browser.js";
import { type PipelineApp, startPipelineApp } from "../../../../test/browser/pipeline-app.js";
import type { FakeChatServer } from "../../../../test/fakes/chat-server.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { waitFor } from "../../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import type { TestSmtpServer } from "../../../../test/support/smtp-server.js";
import type { TestApp } from "../../../../test/support/test-app.js";
import { updateAccount } from "../../accounts/update-account.js";

function linkIn(text: string | undefined, path: string): string {
  const m = new RegExp(`https?://[^\\s]+(${path}\\?token=[A-Za-z0-9_-]{43})`).exec(text ?? "");
  if (!m?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return m[1];
}

/** Opens a mailed link as its reader would: the page, then its button. */
async function follow(app: TestApp, link: string): Promise<Response> {
  const reader = new HttpBrowser(app.url);
  const { html } = await reader.page(link);
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return reader.post(link.split("?")[0] ?? "", { _csrf: csrfToken(html), token });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`alert address confirmation on ${engine.name}`, () => {
    let pipeline: PipelineApp;
    let app: TestApp;
    let chat: FakeChatServer;
    let smtp: TestSmtpServer;

    beforeAll(async () => {
      pipeline = await startPipelineApp(engine);
      ({ app, chat, smtp } = pipeline);
    });
    afterAll(() => pipeline?.close());

    const mailsTo = (address: string) => smtp.messages.filter((m) => m.rcptTo.includes(address));

    it("sends no alert to a dashboard-added address before it is confirmed, and the alert after", async () => {
      const { browser, apiKey } = await signInNewAccount(app, { storeName: "Relay Test" });
      const target = `victim-${engine.name}@other-company.test`;
      const saved = await browser.submit("/settings/alerts", "/settings/alerts", {
        threshold: "70",
        webhook: chat.webhookUrl,
        emails: target,
      });
      expect(saved.status).toBe(303);
      const page = await browser.page(saved.headers.get("location") ?? "");
      expect(page.html).toContain("We sent a link to each new e-mail address");
      expect(page.html).toContain("Awaiting confirmation");
      expect(page.html).toContain("Send again");
      await waitFor("confirmation mailed", async () => mailsTo(target).length === 1);
      const confirmation = mailsTo(target);
      expect(confirmation).toHaveLength(1);
      expect(confirmation[0]?.parsed.subject).toBe(
        "Confirm that you want Velvet VIP alerts at this address",
      );

      // A VIP shops while the address is unconfirmed: chat is alerted, the address is not.
      const res = await app.submit(apiKey, {
        email: `grace-${engine.name}@navy-systems.com`,
        firstName: "Grace",
        lastName: "Hopper",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: "vip-1", number: "#vip-1", total: "1250.00", currency: "USD" },
      });
      const { customerId } = (await res.json()) as { customerId: string };
      await waitFor(
        "chat alert delivered",
        async () => chat.requests.some((r) => JSON.stringify(r.body).includes(customerId)),
        20_000,
      );
      const emailAlert = () =>
        app.deps.db.kysely
          .selectFrom("alerts")
          .selectAll()
          .where("customer_id", "=", customerId)
          .where("channel", "=", "email")
          .executeTakeFirst();
      await waitFor("e-mail alert waiting", async () => (await emailAlert())?.status === "waiting");
      expect((await emailAlert())?.last_error).toContain(
        "Waiting for an alert address to be confirmed",
      );
      expect(mailsTo(target)).toHaveLength(1);

      // The owner of the address confirms: the waiting alert goes out, once.
      const link = linkIn(confirmation[0]?.parsed.text, "/alert-emails/confirm");
      const confirmed = await follow(app, link);
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain("now receives VIP alerts");
      await waitFor("e-mail alert delivered", async () => mailsTo(target).length === 2, 20_000);
      expect(mailsTo(target)[1]?.parsed.subject).toContain("Grace Hopper");
      expect((await browser.page("/settings/alerts")).html).not.toContain("Awaiting confirmation");

      // Single use.
      expect((await follow(app, link)).status).toBe(400);
    });

    it("replaces the link on Send again, and trusts addresses the operator sets", async () => {
      const { browser, accountId } = await signInNewAccount(app, { storeName: "Again" });
      const target = `again-${engine.name}@example.test`;
      await browser.submit("/settings/alerts", "/settings/alerts", {
        threshold: "70",
        webhook: "",
        emails: target,
      });
      await waitFor("first link", async () => mailsTo(target).length === 1);
      const first = linkIn(mailsTo(target)[0]?.parsed.text, "/alert-emails/confirm");
      const again = await browser.submit("/settings/alerts", "/settings/alerts/emails/resend", {
        email: target,
      });
      expect(again.headers.get("location")).toBe("/settings/alerts?notice=sent-again");
      await waitFor("second link", async () => mailsTo(target).length === 2);
      const second = linkIn(mailsTo(target)[1]?.parsed.text, "/alert-emails/confirm");
      expect(second).not.toBe(first);
      expect((await follow(app, first)).status).toBe(400);
      expect((await browser.page("/settings/alerts")).html).toContain("Awaiting confirmation");

      // Saving the list again does not mail the address again; `velvet account set` trusts it.
      const before = smtp.messages.length;
      await browser.submit("/settings/alerts", "/settings/alerts", {
        threshold: "60",
        webhook: "",
        emails: target,
      });
      expect(smtp.messages.length).toBe(before);
      await updateAccount(app.deps.db.kysely, accountId, { channels: { alert_emails: target } });
      expect((await browser.page("/settings/alerts")).html).not.toContain("Awaiting confirmation");
      expect((await follow(app, second)).status).toBe(400);
    });
  });
}
