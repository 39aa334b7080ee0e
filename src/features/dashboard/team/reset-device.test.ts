/**
 * Replay of the second review's finding on both engines, with a real SMTP server: five
 * forgot-password requests from other addresses made the user's own request answer 429 for 15
 * minutes. A browser the user signed in on (device cookie) now has a budget of its own, while
 * mail to one address stays capped and strangers' requests stay throttled.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken, HttpBrowser } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../../test/support/smtp-server.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { DEVICE_COOKIE } from "../../security/known-device.js";
import { RESET_DEVICE_POLICY, RESET_POLICY } from "../../team/password-reset.js";

const PER_EMAIL = RESET_POLICY.perEmail ?? 0;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`reset from a known device on ${engine.name}`, () => {
    let app: TestApp;
    let smtp: TestSmtpServer;
    let address = 0;

    beforeAll(async () => {
      smtp = await startSmtpServer();
      app = await startTestApp(engine, { env: { SMTP_URL: smtp.url, TRUST_PROXY: "1" } });
    });
    afterAll(async () => {
      await app?.close();
      await smtp?.close();
    });

    /** "Forgot password?" from `browser`, seen as coming from a new client address each time. */
    async function forgot(browser: HttpBrowser, email: string): Promise<number> {
      address++;
      const from = { "x-forwarded-for": `203.0.${Math.floor(address / 250)}.${address % 250}` };
      const { html } = await browser.page("/password/forgot");
      const res = await browser.post("/password/forgot", { _csrf: csrfToken(html), email }, from);
      await res.arrayBuffer();
      return res.status;
    }

    const mailsTo = (email: string) => smtp.messages.filter((m) => m.rcptTo.includes(email));

    it("answers the user's own request from a device they signed in on, whatever others sent", async () => {
      const { browser: own, email } = await signInNewAccount(app);
      expect(own.cookies.get(DEVICE_COOKIE)?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
      const strangers: number[] = [];
      for (let i = 0; i < PER_EMAIL + 2; i++)
        strangers.push(await forgot(new HttpBrowser(app.url), email));
      expect(strangers.filter((s) => s === 200)).toHaveLength(PER_EMAIL);
      expect(strangers.at(-1)).toBe(429);

      expect(await forgot(own, email)).toBe(200);
      await expect.poll(() => mailsTo(email).length, { timeout: 5000 }).toBe(PER_EMAIL + 1);
    });

    it("still caps the mail one address gets, and a device's own requests", async () => {
      const { browser: own, email } = await signInNewAccount(app);
      const statuses: number[] = [];
      for (let i = 0; i < RESET_DEVICE_POLICY.perIp + 1; i++)
        statuses.push(await forgot(own, email));
      expect(statuses.slice(0, -1).every((s) => s === 200)).toBe(true);
      expect(statuses.at(-1)).toBe(429);
      for (let i = 0; i < PER_EMAIL + 1; i++) await forgot(new HttpBrowser(app.url), email);
      // The mails leave after the answers (every one of them already started): wait for them.
      await expect
        .poll(() => mailsTo(email).length, { timeout: 5000 })
        .toBe(RESET_DEVICE_POLICY.perIp + PER_EMAIL);
    });

    it("gives nothing to a forged device cookie or another user's", async () => {
      const { email } = await signInNewAccount(app);
      const { browser: other } = await signInNewAccount(app);
      for (let i = 0; i < PER_EMAIL; i++)
        expect(await forgot(new HttpBrowser(app.url), email)).toBe(200);
      // The other user's device is known, but not for this address.
      expect(await forgot(other, email)).toBe(429);
      const forged = new HttpBrowser(app.url);
      forged.cookies.set(DEVICE_COOKIE, { value: "A".repeat(43), path: "/" });
      expect(await forgot(forged, email)).toBe(429);
    });
  });
}
