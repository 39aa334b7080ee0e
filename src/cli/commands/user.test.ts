/**
 * `velvet user …` through the real program on both engines: add prints a set-password link
 * that works once in the real dashboard, list shows roles, remove refuses the last owner, and
 * reset-password prints `{"resetUrl": …}` whose link sets a new password and ends sessions.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HttpBrowser, TEST_PASSWORD, uniqueEmail } from "../../../test/browser/http-browser.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import { invite, tokenOf } from "../../../test/support/team.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";

const NEW_PASSWORD = "velvet curtains mountain breeze";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet user (${engine.name})`, () => {
    let app: TestApp;
    let accountId: string;
    let owner: HttpBrowser;
    let ownerEmail: string;
    const velvet = (...args: string[]) =>
      runVelvet(args, {
        DATABASE_URL: app.database.url,
        PUBLIC_BASE_URL: "https://velvet.example",
      });

    async function choosePassword(link: string, password: string) {
      const browser = new HttpBrowser(app.url);
      // The form's CSRF cookie comes from any visitor page (a used link shows no form).
      return browser.submit("/password/forgot", "/password/reset", {
        token: tokenOf(link),
        password,
      });
    }

    beforeAll(async () => {
      app = await startTestApp(engine);
      ({ browser: owner, accountId, email: ownerEmail } = await signInNewAccount(app));
    });
    afterAll(() => app?.close());

    it("adds a user with a one-time set-password link, lists and removes them", async () => {
      const email = uniqueEmail("cli");
      const added = onlyJson(
        await velvet(
          "user",
          "add",
          "--account",
          accountId,
          "--email",
          email,
          "--role",
          "admin",
          "--json",
        ),
      );
      expect(added.setPasswordUrl).toMatch(
        /^https:\/\/velvet\.example\/password\/reset\?token=[\w-]{43}$/,
      );
      const link = String(added.setPasswordUrl);
      expect((await choosePassword(link, TEST_PASSWORD)).status).toBe(303);
      expect((await choosePassword(link, NEW_PASSWORD)).status).toBe(410);
      const colleague = new HttpBrowser(app.url);
      const login = await colleague.submit("/login", "/login", { email, password: TEST_PASSWORD });
      expect(login.status).toBe(303);
      expect((await colleague.get("/settings/team")).status).toBe(200);

      const list = onlyJson(await velvet("user", "list", "--account", accountId, "--json"));
      expect(list.users).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ email: ownerEmail, role: "owner" }),
          expect.objectContaining({ email, role: "admin", hasPassword: true }),
        ]),
      );

      const preview = onlyJson(
        await velvet("user", "remove", "--account", accountId, "--email", email, "--json"),
      );
      expect(preview).toEqual({
        dryRun: true,
        wouldRemove: email,
        role: "admin",
        sessionsEnded: 1,
      });
      const removed = onlyJson(
        await velvet("user", "remove", "--account", accountId, "--email", email, "--yes", "--json"),
      );
      expect(removed).toEqual({ removed: email, sessionsEnded: 1 });
      expect((await colleague.get("/settings/team")).status).toBe(303);
    });

    it("cancels a pending invitation: the link stops working", async () => {
      const { path, email } = await invite(owner, "admin");
      const cancelled = onlyJson(
        await velvet(
          "user",
          "cancel-invitation",
          "--account",
          accountId,
          "--email",
          email,
          "--json",
        ),
      );
      expect(cancelled).toEqual({ cancelled: email, role: "admin" });
      expect((await new HttpBrowser(app.url).get(path)).status).toBe(410);
      const again = await velvet(
        "user",
        "cancel-invitation",
        "--account",
        accountId,
        "--email",
        email,
      );
      expect(again.code).not.toBe(0);
      expect(again.stderr).toContain("No invitation is waiting for this address.");
    });

    it("refuses to remove the last owner", async () => {
      for (const yes of [[], ["--yes"]]) {
        const run = await velvet(
          "user",
          "remove",
          "--account",
          accountId,
          "--email",
          ownerEmail,
          ...yes,
        );
        expect(run.code).not.toBe(0);
        expect(run.stderr).toContain("An account needs at least one owner");
      }
      expect((await owner.get("/settings/team")).status).toBe(200);
    });

    it("prints a reset link that sets a new password and ends the user's sessions", async () => {
      const out = onlyJson(await velvet("user", "reset-password", "--email", ownerEmail, "--json"));
      expect(Object.keys(out).sort()).toEqual(["expiresAt", "resetUrl"]);
      expect((await choosePassword(String(out.resetUrl), NEW_PASSWORD)).status).toBe(303);
      expect((await owner.get("/settings/team")).status).toBe(303);
      const browser = new HttpBrowser(app.url);
      expect(
        (await browser.submit("/login", "/login", { email: ownerEmail, password: NEW_PASSWORD }))
          .status,
      ).toBe(303);
      const audit = onlyJson(await velvet("audit", "list", "--account", accountId, "--json"));
      const actions = (audit.events as Array<{ action: string }>).map((e) => e.action);
      expect(actions).toEqual(
        expect.arrayContaining([
          "team.added",
          "team.removed",
          "user.password_reset_link_issued",
          "user.password_reset",
        ]),
      );
      expect(JSON.stringify(audit)).not.toContain(tokenOf(String(out.resetUrl)));
    });

    it("says when the e-mail has no user", async () => {
      const run = await velvet("user", "reset-password", "--email", "nobody@example.com");
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain("No user with the e-mail nobody@example.com");
    });
  });
}
