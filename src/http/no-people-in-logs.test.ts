/**
 * A whole dashboard session with the process log captured at its most verbose (trace), on both
 * engines: sign up with e-mail verification, orders through the API, customers searched by
 * e-mail and by name, a colleague invited and joining, a wrong password, a password reset
 * through the mailed link, an alert address confirmed, a verdict given through an alert's link. Then the log is searched for every
 * e-mail address, token, name, search term and password the session used: none may be there.
 */
import { Writable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfToken,
  HttpBrowser,
  newKeyOnPage,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../test/browser/http-browser.js";
import { ENGINES } from "../../test/support/databases.js";
import { startSmtpServer, type TestSmtpServer } from "../../test/support/smtp-server.js";
import { tokenOf } from "../../test/support/team.js";
import { startTestApp, type TestApp } from "../../test/support/test-app.js";
import { verdictLinks } from "../features/verdicts/verdict-links.js";
import { createLogger } from "../main.js";

const NEW_PASSWORD = "velvet curtains mountain breeze";
const WRONG_PASSWORD = "not-the-password-at-all";
const CUSTOMER = { first: "Philippa", last: "Quenby-Ardmore" };

function linkIn(text: string | undefined, path: string): string {
  const m = new RegExp(`https?://\\S+(${path}\\?token=[A-Za-z0-9_-]{43})`).exec(text ?? "");
  if (!m?.[1]) throw new Error(`no ${path} link in: ${text}`);
  return m[1];
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`no person or secret in the log on ${engine.name}`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    const lines: string[] = [];

    beforeAll(async () => {
      smtp = await startSmtpServer();
      const capture = new Writable({
        write(chunk, _encoding, done) {
          lines.push(String(chunk));
          done();
        },
      });
      app = await startTestApp(engine, {
        env: { SMTP_URL: smtp.url, SIGNUP: "open" },
        log: createLogger({ logLevel: "trace" }, capture),
        worker: true,
      });
    });
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
    });

    async function nextMail(to: string) {
      await expect.poll(() => smtp.messages.some((m) => m.rcptTo.includes(to))).toBe(true);
      const mail = smtp.messages.filter((m) => m.rcptTo.includes(to)).at(-1);
      smtp.messages.splice(0, smtp.messages.length);
      return mail?.parsed.text;
    }

    /** Opens a link from a mail and posts its form with `fields`. */
    async function follow(browser: HttpBrowser, link: string, action: string, fields = {}) {
      const { html } = await browser.page(link);
      return browser.post(action, { _csrf: csrfToken(html), token: tokenOf(link), ...fields });
    }

    it("logs the session's requests without any of its people, tokens or search terms", async () => {
      const owner = uniqueEmail("owner");
      const colleague = uniqueEmail("colleague");
      const customerEmail = uniqueEmail("philippa");
      const alertEmail = uniqueEmail("alerts");
      const secrets: string[] = [TEST_PASSWORD, NEW_PASSWORD, WRONG_PASSWORD];

      // Sign up, verified by the mailed link.
      const browser = new HttpBrowser(app.url);
      const signup = await browser.submit("/signup", "/signup", {
        storeName: "Atelier Quenby",
        email: owner,
        password: TEST_PASSWORD,
      });
      expect(signup.status).toBeLessThan(400);
      const signupLink = linkIn(await nextMail(owner), "/signup/confirm");
      const confirmed = await follow(browser, signupLink, "/signup/confirm");
      expect(confirmed.status).toBe(303);
      const { html: keyPage } = await browser.page(confirmed.headers.get("location") ?? "/");
      const apiKey = newKeyOnPage(keyPage) ?? "";
      expect(apiKey).not.toBe("");

      // A customer arrives through the API; the merchant searches for them.
      const order = await app.submit(apiKey, {
        email: customerEmail,
        firstName: CUSTOMER.first,
        lastName: CUSTOMER.last,
        order: { id: "A-1001", number: "#1001", total: "120.00", currency: "USD" },
      });
      expect(order.status).toBeLessThan(300);
      const { customerId } = (await order.json()) as { customerId: string };
      for (const q of [customerEmail, CUSTOMER.last, `${CUSTOMER.first} ${CUSTOMER.last}`]) {
        const found = await browser.page(`/customers?q=${encodeURIComponent(q)}`);
        expect(found.html).toContain(CUSTOMER.last);
      }

      // A colleague is invited and joins through the mailed link.
      const invited = await browser.submit("/settings/team", "/settings/team/invite", {
        email: colleague,
        role: "admin",
      });
      expect(invited.status).toBe(200);
      const inviteLink = linkIn(await nextMail(colleague), "/invitations/accept");
      const joined = await follow(new HttpBrowser(app.url), inviteLink, "/invitations/accept", {
        password: TEST_PASSWORD,
      });
      expect(joined.status).toBe(303);

      // A wrong password, then a reset through the mailed link, then the new password.
      const wrong = await new HttpBrowser(app.url).submit("/login", "/login", {
        email: owner,
        password: WRONG_PASSWORD,
      });
      expect(wrong.status).toBe(401);
      const forgot = await browser.submit("/password/forgot", "/password/forgot", { email: owner });
      expect(forgot.status).toBe(200);
      const resetLink = linkIn(await nextMail(owner), "/password/reset");
      const reset = await follow(new HttpBrowser(app.url), resetLink, "/password/reset", {
        password: NEW_PASSWORD,
      });
      expect(reset.status).toBe(303);
      const again = new HttpBrowser(app.url);
      const login = await again.submit("/login", "/login", {
        email: owner,
        password: NEW_PASSWORD,
      });
      expect(login.status).toBe(303);

      // An alert address, confirmed through its link; a wrong current password on Profile.
      const saved = await again.submit("/settings/alerts", "/settings/alerts", {
        threshold: "70",
        webhook: "",
        emails: alertEmail,
      });
      expect(saved.status).toBeLessThan(400);
      const alertLink = linkIn(await nextMail(alertEmail), "/alert-emails/confirm");
      await follow(new HttpBrowser(app.url), alertLink, "/alert-emails/confirm");
      // The customer made a VIP, alerted, and judged through the alert's "Not a VIP" link.
      const db = app.deps.db.kysely;
      await expect
        .poll(async () => {
          const e = await db
            .selectFrom("enrichments")
            .select("enriched_at")
            .where("customer_id", "=", customerId)
            .executeTakeFirst();
          return e?.enriched_at != null;
        })
        .toBe(true);
      await db
        .updateTable("enrichments")
        .set({ vip: 1 })
        .where("customer_id", "=", customerId)
        .execute();
      const alertId = "0190a000-0000-7000-8000-00000000a1e7";
      const secret = "k".repeat(43);
      const account = await db.selectFrom("accounts").select("id").executeTakeFirstOrThrow();
      await db
        .insertInto("alerts")
        .values({
          id: alertId,
          account_id: account.id,
          customer_id: customerId,
          channel: "chat",
          status: "delivered",
          target: "hooks.example.com",
          score: 80,
          threshold: 70,
          message_id: `<${alertId}@velvet>`,
          attempts: 1,
          last_error: null,
          created_at: app.deps.clock.now(),
          delivered_at: app.deps.clock.now(),
          verdict_secret: secret,
        })
        .execute();
      const verdictLink = verdictLinks("", { id: alertId, verdictSecret: secret })?.wrong ?? "";
      const reader = new HttpBrowser(app.url);
      const { html: verdictPage } = await reader.page(verdictLink);
      const verdictToken = new URL(verdictLink, app.url).searchParams.get("token") ?? "";
      const judged = await reader.post("/verdict", {
        _csrf: csrfToken(verdictPage),
        alert: alertId,
        verdict: "wrong",
        token: verdictToken,
      });
      expect(judged.status).toBe(200);
      const profile = await again.submit("/settings/profile", "/settings/profile/password", {
        current: WRONG_PASSWORD,
        password: "another long new password",
      });
      expect(profile.status).toBe(400);
      // A client putting an address in a path or a request id of its own.
      await again.get(`/nowhere/${encodeURIComponent(customerEmail)}`, {
        "x-request-id": customerEmail,
      });

      secrets.push(
        owner,
        colleague,
        customerEmail,
        alertEmail,
        apiKey,
        CUSTOMER.first,
        CUSTOMER.last,
        tokenOf(signupLink),
        tokenOf(inviteLink),
        tokenOf(resetLink),
        tokenOf(alertLink),
        verdictToken,
        secret,
        "Atelier Quenby",
      );
      for (const b of [browser, again])
        for (const cookie of b.cookies.values()) secrets.push(cookie.value);
      for (const e of [owner, colleague, customerEmail, alertEmail])
        secrets.push(e.split("@")[0] ?? e);

      const log = lines.join("");
      expect(log).toContain('"route":"/invitations/accept"');
      expect(log).toContain('"path":"/customers"');
      expect(log).toContain('"route":"/password/reset"');
      expect(log).toContain('"route":"/verdict"');
      for (const secret of secrets) {
        expect(secret.length).toBeGreaterThan(3);
        expect(log.toLowerCase()).not.toContain(secret.toLowerCase());
        expect(log).not.toContain(encodeURIComponent(secret));
      }
    });
  });
}
