/**
 * Password change, password reset and the session list, over HTTP on both engines, with a real
 * SMTP server and the injectable clock.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpBrowser, TEST_PASSWORD } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { manualClock } from "../../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../../test/support/smtp-server.js";
import { tokenOf } from "../../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { RESET_ANSWER_MS, RESET_TTL_MS } from "../../team/password-reset.js";

const NEW_PASSWORD = "velvet curtains mountain breeze";
const FIREFOX_UA =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:128.0) Gecko/20100101 Firefox/128.0";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`passwords and sessions on ${engine.name}`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    const clock = manualClock(Date.now());

    async function logIn(email: string, password: string, headers: Record<string, string> = {}) {
      const browser = new HttpBrowser(app.url);
      const { html } = await browser.page("/login");
      const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? "";
      const res = await browser.post("/login", { _csrf: token, email, password }, headers);
      return { browser, status: res.status };
    }

    async function signedIn(browser: HttpBrowser) {
      return (await browser.get("/settings/profile")).status === 200;
    }

    async function audit(accountId: string) {
      return app.deps.db.kysely
        .selectFrom("audit_events")
        .selectAll()
        .where("account_id", "=", accountId)
        .execute();
    }

    /** Asks for a reset link on the page; returns the answer and the time it took. */
    async function forgot(email: string) {
      const visitor = new HttpBrowser(app.url);
      const started = performance.now();
      const res = await visitor.submit("/password/forgot", "/password/forgot", { email });
      const html = await res.text();
      return { status: res.status, html, ms: performance.now() - started, visitor };
    }

    beforeAll(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(engine, { env: { SMTP_URL: smtp.url }, clock });
    });
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
    });

    it("changes the password with the current one, says why a weak one is refused, and ends the other sessions", async () => {
      const { browser, email, accountId } = await signInNewAccount(app);
      const { browser: other } = await logIn(email, TEST_PASSWORD);
      expect(await signedIn(other)).toBe(true);

      const wrong = await browser.submit("/settings/profile", "/settings/profile/password", {
        current: "not my password",
        password: NEW_PASSWORD,
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain("That is not your current password");
      const weak = await browser.submit("/settings/profile", "/settings/profile/password", {
        current: TEST_PASSWORD,
        password: "password123",
      });
      expect(weak.status).toBe(400);
      expect(await weak.text()).toContain("Choose a harder password");
      expect(await signedIn(other)).toBe(true);

      const ok = await browser.submit("/settings/profile", "/settings/profile/password", {
        current: TEST_PASSWORD,
        password: NEW_PASSWORD,
      });
      expect(ok.status).toBe(303);
      expect(await signedIn(browser)).toBe(true);
      expect(await signedIn(other)).toBe(false);
      expect((await logIn(email, TEST_PASSWORD)).status).toBe(401);
      expect((await logIn(email, NEW_PASSWORD)).status).toBe(303);
      const event = (await audit(accountId)).find((e) => e.action === "user.password_changed");
      expect(JSON.parse(event?.details ?? "{}")).toEqual({ sessionsEnded: 1 });
      expect(JSON.stringify(await audit(accountId))).not.toContain(NEW_PASSWORD);
    });

    it("answers a reset request the same way, in the same time, for a known and an unknown address", async () => {
      const { email } = await signInNewAccount(app);
      const sent = smtp.messages.length;
      const known = await forgot(email);
      const unknown = await forgot(`nobody-${Date.now()}@example.com`);
      expect(known.status).toBe(200);
      expect(unknown.status).toBe(200);
      const answer = (html: string) => /<div class="notice[^"]*"[^>]*>.*?<\/div>/s.exec(html)?.[0];
      expect(answer(known.html)).toBeDefined();
      expect(answer(known.html)).toBe(answer(unknown.html));
      expect(known.ms).toBeGreaterThanOrEqual(RESET_ANSWER_MS);
      expect(unknown.ms).toBeGreaterThanOrEqual(RESET_ANSWER_MS);
      await smtp.waitForMessages(sent + 1);
      expect(smtp.messages.slice(sent).map((m) => m.rcptTo)).toEqual([[email]]);
    });

    it("resets through the mailed link once, within an hour, ending every session", async () => {
      const { browser, email, accountId } = await signInNewAccount(app);
      const sent = smtp.messages.length;
      await forgot(email);
      const [mail] = (await smtp.waitForMessages(sent + 1)).slice(sent);
      const link = /https?:\/\/\S+\/password\/reset\?token=[\w-]+/.exec(
        mail?.parsed.text ?? "",
      )?.[0];
      if (!link) throw new Error("no reset link in the e-mail");
      const token = tokenOf(link);
      const stored = await app.deps.db.kysely.selectFrom("password_resets").selectAll().execute();
      expect(JSON.stringify(stored)).not.toContain(token);

      const visitor = new HttpBrowser(app.url);
      const page = await visitor.page(`/password/reset?token=${token}`);
      expect(page.res.status).toBe(200);
      expect(page.html).toContain(email);
      const weak = await visitor.submit(`/password/reset?token=${token}`, "/password/reset", {
        token,
        password: "qwertyuiop",
      });
      expect(weak.status).toBe(400);
      const done = await visitor.submit(`/password/reset?token=${token}`, "/password/reset", {
        token,
        password: NEW_PASSWORD,
      });
      expect(done.status).toBe(303);
      expect(done.headers.get("location")).toBe("/login?notice=password-reset");
      expect(await signedIn(browser)).toBe(false);
      expect((await logIn(email, TEST_PASSWORD)).status).toBe(401);
      expect((await logIn(email, NEW_PASSWORD)).status).toBe(303);

      // Single use.
      expect((await visitor.get(`/password/reset?token=${token}`)).status).toBe(410);
      const again = await visitor.submit("/password/forgot", "/password/reset", {
        token,
        password: `${NEW_PASSWORD} again`,
      });
      expect(again.status).toBe(410);
      const actions = (await audit(accountId)).map((e) => e.action);
      expect(actions).toEqual(
        expect.arrayContaining(["user.password_reset_requested", "user.password_reset"]),
      );
      // The request's actor is whoever asked, by address: not the owner whose e-mail they typed.
      const requested = (await audit(accountId)).find(
        (e) => e.action === "user.password_reset_requested",
      );
      expect(requested?.actor).toMatch(/^visitor from .+ \(not signed in\)$/);
      expect(requested?.actor).not.toContain(email);
      expect(JSON.stringify(await audit(accountId))).not.toContain(token);
    });

    it("lets a reset link expire after an hour", async () => {
      const { email } = await signInNewAccount(app);
      const sent = smtp.messages.length;
      await forgot(email);
      const [mail] = (await smtp.waitForMessages(sent + 1)).slice(sent);
      const token = tokenOf(
        /\/password\/reset\?token=[\w-]+/.exec(mail?.parsed.text ?? "")?.[0] ?? "",
      );
      clock.advance(RESET_TTL_MS + 1);
      try {
        const visitor = new HttpBrowser(app.url);
        expect((await visitor.get(`/password/reset?token=${token}`)).status).toBe(410);
        const late = await visitor.submit("/password/forgot", "/password/reset", {
          token,
          password: NEW_PASSWORD,
        });
        expect(late.status).toBe(410);
      } finally {
        clock.advance(-(RESET_TTL_MS + 1));
      }
    });

    it("throttles reset requests like log-ins", async () => {
      const { email } = await signInNewAccount(app);
      const statuses: number[] = [];
      for (let i = 0; i < 6; i++) statuses.push((await forgot(email)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    });

    it("lists the user's sessions with address and browser, and ends one or all others", async () => {
      const { browser, email, accountId } = await signInNewAccount(app);
      const { browser: firefox } = await logIn(email, TEST_PASSWORD, { "user-agent": FIREFOX_UA });
      const { browser: third } = await logIn(email, TEST_PASSWORD);
      const { html } = await browser.page("/settings/profile");
      expect(html).toContain("Firefox on macOS");
      expect(html).toContain("127.0.0.1");
      expect(html).toContain("This session");

      const firefoxHash = await app.deps.db.kysely
        .selectFrom("sessions")
        .select("id_hash")
        .where("browser", "=", "Firefox on macOS")
        .executeTakeFirstOrThrow();
      const one = await browser.submit("/settings/profile", "/settings/profile/sessions/end", {
        session: firefoxHash.id_hash,
      });
      expect(one.status).toBe(303);
      expect(await signedIn(firefox)).toBe(false);
      expect(await signedIn(third)).toBe(true);

      const rest = await browser.submit(
        "/settings/profile",
        "/settings/profile/sessions/end-others",
      );
      expect(rest.status).toBe(303);
      expect(await signedIn(third)).toBe(false);
      expect(await signedIn(browser)).toBe(true);
      const ended = (await audit(accountId)).filter((e) => e.action === "user.sessions_ended");
      expect(ended.map((e) => JSON.parse(e.details ?? "{}"))).toEqual([
        { sessionsEnded: 1 },
        { sessionsEnded: 1 },
      ]);
    });

    it("cannot end another user's session", async () => {
      const { browser } = await signInNewAccount(app);
      const { email: otherEmail } = await signInNewAccount(app);
      const { browser: other } = await logIn(otherEmail, TEST_PASSWORD);
      const hashes = await app.deps.db.kysely.selectFrom("sessions").select("id_hash").execute();
      for (const { id_hash } of hashes)
        await browser.submit("/settings/profile", "/settings/profile/sessions/end", {
          session: id_hash,
        });
      expect(await signedIn(other)).toBe(true);
      expect(await signedIn(browser)).toBe(true);
    });
  });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`forgot password without SMTP on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(() => app?.close());

    it("says no link was sent and to ask the operator, makes no link, and notes the request", async () => {
      const { email, accountId } = await signInNewAccount(app);
      for (const address of [email, "nobody-here@example.com"]) {
        const visitor = new HttpBrowser(app.url);
        const res = await visitor.submit("/password/forgot", "/password/forgot", {
          email: address,
        });
        expect(res.status).toBe(200);
        const page = await res.text();
        expect(page).toContain("cannot send e-mail, so no link was sent");
        expect(page).toContain("velvet user reset-password");
        expect(page).not.toContain("on its way");
      }
      expect(await app.deps.db.kysely.selectFrom("password_resets").selectAll().execute()).toEqual(
        [],
      );
      const events = await app.deps.db.kysely
        .selectFrom("audit_events")
        .select(["action", "actor", "details"])
        .where("account_id", "=", accountId)
        .where("action", "=", "user.password_reset_requested")
        .execute();
      expect(events).toHaveLength(1);
      expect(JSON.parse(events[0]?.details ?? "{}")).toMatchObject({ linkSent: false });
    });
  });
}
