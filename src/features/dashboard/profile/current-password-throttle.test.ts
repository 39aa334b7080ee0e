/**
 * Replay of the second review's finding on both engines: 40 wrong "current password" values on
 * the profile form were all checked and the right one then accepted; the close-account form
 * checked the same way. Both now count on the log-in throttle.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csrfToken, TEST_PASSWORD } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";
import { LOGIN_POLICY } from "../../security/auth-throttle.js";

const NEW_PASSWORD = "velvet curtains mountain breeze";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`current password on ${engine.name}`, () => {
    let app: TestApp;

    beforeAll(async () => {
      app = await startTestApp(engine);
    });
    afterAll(async () => {
      await app?.close();
    });

    let lastAccount = "";
    async function burst(page: string, action: string, field: string): Promise<number[]> {
      // The profile form also carries the new password; the close form only the current one.
      const fields = (guess: string) =>
        field === "password" ? { password: guess } : { [field]: guess, password: NEW_PASSWORD };
      const { browser, accountId } = await signInNewAccount(app);
      lastAccount = accountId;
      const { html } = await browser.page(page);
      const token = csrfToken(html);
      const wrong: Response[] = [];
      for (let i = 0; i < 40; i++)
        wrong.push(await browser.post(action, { _csrf: token, ...fields(`wrong guess ${i}`) }));
      const right = await browser.post(action, {
        _csrf: token,
        ...fields(TEST_PASSWORD),
      });
      if (right.status === 429) expect(right.headers.get("retry-after")).toMatch(/^\d+$/);
      return [...wrong.map((r) => r.status), right.status];
    }

    it("checks at most the log-in limit of current passwords on the profile form, then refuses even the right one", async () => {
      const statuses = await burst("/settings/profile", "/settings/profile/password", "current");
      const checked = statuses.slice(0, 40).filter((s) => s === 400).length;
      expect(checked).toBe(LOGIN_POLICY.perEmailAndIp);
      expect(statuses.slice(0, 40).every((s) => s === 400 || s === 429)).toBe(true);
      expect(statuses[40]).toBe(429);
    });

    it("does the same on the close-account form, and the account stays open", async () => {
      const statuses = await burst("/settings/account", "/settings/account/close", "password");
      // The close form's one field is the password: every guess is a wrong one but the last.
      const checked = statuses.slice(0, 40).filter((s) => s === 400).length;
      expect(checked).toBeLessThanOrEqual(LOGIN_POLICY.perEmailAndIp);
      expect(statuses[40]).toBe(429);
      const account = await app.deps.db.kysely
        .selectFrom("accounts")
        .select("closed_at")
        .where("id", "=", lastAccount)
        .executeTakeFirstOrThrow();
      expect(account.closed_at).toBeNull();
    });
  });
}
