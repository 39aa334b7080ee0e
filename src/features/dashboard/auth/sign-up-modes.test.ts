/**
 * Sign-up by SIGNUP mode: unset (the first account only, also under a race), closed, and open
 * with e-mail verification, where a new and a taken address get the same answer and only the
 * link mailed to the address creates the account (real SMTP server).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfToken,
  HttpBrowser,
  newKeyOnPage,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { manualClock } from "../../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../../test/support/smtp-server.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { SIGNUP_LINK_TTL_MS } from "./request-sign-up.js";

async function signUpForm(app: TestApp) {
  const browser = new HttpBrowser(app.url);
  const { html } = await browser.page("/signup");
  const token = csrfToken(html);
  const post = (email: string, storeName = "Shop", password = TEST_PASSWORD) =>
    browser.post("/signup", { _csrf: token, storeName, email, password });
  return { browser, post };
}

const accounts = (app: TestApp) => app.deps.db.kysely.selectFrom("accounts").select("id").execute();

function confirmLink(text: string | undefined): string {
  const m = /https?:\/\/\S+(\/signup\/confirm\?token=[A-Za-z0-9_-]{43})/.exec(text ?? "");
  if (!m?.[1]) throw new Error(`no sign-up link in: ${text}`);
  return m[1];
}

async function openLink(app: TestApp, link: string, browser = new HttpBrowser(app.url)) {
  const { html } = await browser.page(link);
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1] ?? "";
  return { browser, res: await browser.post("/signup/confirm", { _csrf: csrfToken(html), token }) };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`sign-up modes on ${engine.name}`, () => {
    it("SIGNUP unset: of two sign-ups racing on an empty server, exactly one becomes the account", async () => {
      const app = await startTestApp(engine);
      try {
        const [a, b] = await Promise.all([signUpForm(app), signUpForm(app)]);
        const answers = await Promise.all([a.post(uniqueEmail("a")), b.post(uniqueEmail("b"))]);
        expect(answers.map((r) => r.status).sort()).toEqual([303, 403]);
        expect(await accounts(app)).toHaveLength(1);
      } finally {
        await app.close();
      }
    });

    it("SIGNUP=closed: closed from the start, and says so plainly", async () => {
      const app = await startTestApp(engine, { env: { SIGNUP: "closed" } });
      try {
        const visitor = new HttpBrowser(app.url);
        const page = await visitor.page("/signup");
        expect(page.html).toContain("Sign-up is closed");
        expect(page.html).toContain("ask the person who runs this server");
        expect((await visitor.page("/login")).html).not.toContain('href="/signup"');
        const res = await visitor.submit("/login", "/signup", {
          storeName: "Shop",
          email: uniqueEmail(),
          password: TEST_PASSWORD,
        });
        expect(res.status).toBe(403);
        expect(await accounts(app)).toEqual([]);
      } finally {
        await app.close();
      }
    });

    describe("SIGNUP=open", () => {
      let smtp: TestSmtpServer;
      let app: TestApp;
      const clock = manualClock(Date.UTC(2025, 5, 1));
      beforeAll(async () => {
        smtp = await startSmtpServer();
        app = await startTestApp(engine, {
          clock,
          env: { SIGNUP: "open", SMTP_URL: smtp.url, TRUST_PROXY: "127.0.0.1" },
        });
      });
      afterAll(async () => {
        await app?.close();
        await smtp?.close();
      });
      const mailsTo = (address: string) =>
        smtp.messages.filter((m) => m.rcptTo.includes(address.toLowerCase()));

      it("answers a new and a taken address alike; only the mailed link creates the account", async () => {
        const { email: taken } = await signInNewAccount(app);
        const fresh = uniqueEmail("new");
        const newcomer = await signUpForm(app);
        const intruder = await signUpForm(app);
        const forNew = await newcomer.post(fresh, "Maison Rose");
        const forTaken = await intruder.post(taken.toUpperCase(), "Maison Rose");
        expect(forNew.status).toBe(200);
        expect(forTaken.status).toBe(forNew.status);
        const bodyNew = (await forNew.text()).replace(fresh, "EMAIL");
        const bodyTaken = (await forTaken.text()).replace(taken.toUpperCase(), "EMAIL");
        expect(bodyTaken).toBe(bodyNew);
        expect(bodyNew).toContain("Check your inbox");
        for (const res of [forNew, forTaken])
          expect(res.headers.getSetCookie().some((c) => c.startsWith("velvet_session="))).toBe(
            false,
          );

        await smtp.waitForMessages(2);
        expect(mailsTo(taken)[0]?.parsed.subject).toBe(
          "Someone tried to sign up to Velvet with your address",
        );
        expect(mailsTo(taken)[0]?.parsed.text).not.toContain("/signup/confirm");
        const link = confirmLink(mailsTo(fresh)[0]?.parsed.text);

        // Nothing exists, and nothing logs in, before the link is used.
        const users = () =>
          app.deps.db.kysely.selectFrom("users").select("id").where("email_normalized", "=", fresh);
        expect(await users().execute()).toEqual([]);
        const early = await new HttpBrowser(app.url).submit("/login", "/login", {
          email: fresh,
          password: TEST_PASSWORD,
        });
        expect(early.status).toBe(401);

        // A mail scanner fetching the link does not use it up.
        await new HttpBrowser(app.url).page(link);
        const { browser, res } = await openLink(app, link);
        expect(res.status).toBe(303);
        expect(res.headers.get("location")).toBe("/settings/integrations?welcome=1");
        const welcome = await browser.page("/settings/integrations?welcome=1");
        const apiKey = newKeyOnPage(welcome.html);
        expect(apiKey).toMatch(/^sk_live_/);
        expect(await users().execute()).toHaveLength(1);
        const login = await new HttpBrowser(app.url).submit("/login", "/login", {
          email: fresh,
          password: TEST_PASSWORD,
        });
        expect(login.status).toBe(303);

        // Single use.
        expect((await openLink(app, link)).res.status).toBe(400);
      });

      it("lets a link expire after 24 hours", async () => {
        const email = uniqueEmail("late");
        await (await signUpForm(app)).post(email);
        const link = confirmLink(mailsTo(email)[0]?.parsed.text);
        clock.advance(SIGNUP_LINK_TTL_MS + 1000);
        const { res } = await openLink(app, link);
        expect(res.status).toBe(400);
        expect(await res.text()).toContain("more than 24 hours old");
      });

      it("hashes and mails at most 3 times for a burst of 20 concurrent sign-ups with one address", async () => {
        clock.advance(3600_000);
        const email = uniqueEmail("burst");
        const forms = await Promise.all(Array.from({ length: 20 }, () => signUpForm(app)));
        const answers = await Promise.all(forms.map((f) => f.post(email, "Burst", TEST_PASSWORD)));
        expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(3);
        expect(answers.every((r) => r.status === 200 || r.status === 429)).toBe(true);
        const rows = await app.deps.db.kysely
          .selectFrom("auth_attempts")
          .select("id")
          .where("action", "=", "signup")
          .where("email", "=", email)
          .execute();
        expect(rows.length).toBeLessThanOrEqual(3);
        // Each mail is recorded before the SMTP server's 250, so before its sign-up answered.
        expect(mailsTo(email).length).toBeLessThanOrEqual(3);
      });
    });
  });
}
