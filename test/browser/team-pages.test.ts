/**
 * The team's pages in Chromium, each checked with axe: an owner invites a colleague on
 * Settings → Team and copies the link shown once; the colleague accepts it, signs in as a
 * member and finds only what a member may use (the server's 403 page for the rest); changes
 * their password on Profile and sees their sessions; forgets it, asks for a link on the log-in
 * page and chooses a new one on the reset page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliActor } from "../../src/features/audit/audit-actor.js";
import { issueResetLink } from "../../src/features/team/password-reset.js";
import { ENGINES } from "../support/databases.js";
import { signInNewAccount } from "../support/sign-in.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { axeViolations } from "./axe.js";
import { type ChromiumSession, chromiumAvailable, launchChromium, visible } from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";

const NEW_PASSWORD = "velvet curtains mountain breeze";
const LATEST_PASSWORD = "orchid lantern harbour violin";

for (const engine of ENGINES) {
  describe.skipIf(!chromiumAvailable || !engine.available)(
    `team pages in Chromium on ${engine.name}`,
    () => {
      let app: TestApp;
      let chrome: ChromiumSession;
      let ownerEmail: string;
      const memberEmail = uniqueEmail("colleague");

      async function expectAccessible(what: string) {
        expect(await axeViolations(chrome.page), what).toEqual([]);
      }

      async function logIn(email: string, password: string) {
        const { page } = chrome;
        await page.goto(`${app.url}/login`);
        await page.getByLabel("E-mail").fill(email);
        await page.getByLabel("Password").fill(password);
        await page.getByRole("button", { name: "Log in" }).click();
        await page.waitForURL((url) => url.pathname === "/");
      }

      async function logOut() {
        await chrome.page.getByRole("button", { name: "Log out" }).click();
        await chrome.page.waitForURL(/\/login/);
      }

      beforeAll(async () => {
        app = await startTestApp(engine);
        chrome = await launchChromium();
        ({ email: ownerEmail } = await signInNewAccount(app, { storeName: "Maison Velours" }));
      });
      afterAll(async () => {
        await chrome?.close();
        await app?.close();
      });

      it("invites from Settings → Team and shows the link once", async () => {
        const { page } = chrome;
        await logIn(ownerEmail, TEST_PASSWORD);
        await page
          .getByRole("navigation", { name: "Main" })
          .getByRole("link", { name: "Settings" })
          .click();
        await page
          .getByRole("navigation", { name: "Settings" })
          .getByRole("link", { name: "Team" })
          .click();
        await expect.poll(() => page.title()).toContain("Team");
        await expectAccessible("Team");
        await page.getByLabel("Their e-mail").fill(memberEmail);
        await page.getByLabel("Role", { exact: true }).selectOption("member");
        await page.getByRole("button", { name: "Create invitation" }).click();
        expect(await visible(page.locator("#invite-link"))).toBe(true);
        await expectAccessible("Team with an invitation");
        const link = (await page.locator("#invite-link").textContent()) ?? "";
        expect(link).toContain("/invitations/accept?token=");
        await page.goto(`${app.url}/settings/team`);
        expect(await page.locator("#invite-link").count()).toBe(0);
        expect(await page.getByRole("cell", { name: memberEmail, exact: true }).count()).toBe(1);
        expect(
          await visible(
            page.getByRole("button", { name: `Cancel the invitation of ${memberEmail}` }),
          ),
        ).toBe(true);
        await logOut();

        await page.goto(`${app.url}${new URL(link).pathname}${new URL(link).search}`);
        expect(
          await visible(page.getByRole("heading", { name: "Join Maison Velours on Velvet" })),
        ).toBe(true);
        await expectAccessible("Accept");
        await page.getByLabel("Password").fill("password1234");
        await page.getByRole("button", { name: "Join and log in" }).click();
        expect(await visible(page.getByText("Choose a harder password"))).toBe(true);
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.getByRole("button", { name: "Join and log in" }).click();
        await page.waitForURL((url) => url.pathname === "/");
      });

      it("shows a member only their pages, and the 403 page for the rest", async () => {
        const { page } = chrome;
        const settings = page
          .getByRole("navigation", { name: "Main" })
          .getByRole("link", { name: "Settings" });
        expect(await settings.getAttribute("href")).toBe("/settings/billing");
        await settings.click();
        const tabs = page.getByRole("navigation", { name: "Settings" }).getByRole("link");
        expect(await tabs.allTextContents()).toEqual(["Billing", "Profile"]);
        const res = await page.goto(`${app.url}/settings/integrations`);
        expect(res?.status()).toBe(403);
        expect(
          await visible(page.getByRole("heading", { name: "You do not have access to this" })),
        ).toBe(true);
        await expectAccessible("403");
      });

      it("changes the password on Profile and lists the sessions", async () => {
        const { page } = chrome;
        await page.goto(`${app.url}/settings/profile`);
        expect(await visible(page.getByText("This session"))).toBe(true);
        expect(await page.getByText("Chrome on Linux").count()).toBeGreaterThan(0);
        await expectAccessible("Profile");
        await page.getByLabel("Current password").fill(TEST_PASSWORD);
        await page.getByLabel("New password").fill("abcdefghij");
        await page.getByRole("button", { name: "Change password" }).click();
        expect(await visible(page.getByText("Choose a harder password"))).toBe(true);
        await expectAccessible("Profile with an error");
        await page.getByLabel("Current password").fill(TEST_PASSWORD);
        await page.getByLabel("New password").fill(NEW_PASSWORD);
        await page.getByRole("button", { name: "Change password" }).click();
        expect(await visible(page.getByText("Your password is changed."))).toBe(true);
        await logOut();
      });

      it("resets a forgotten password from the log-in page and the link", async () => {
        const { page } = chrome;
        await page.getByRole("link", { name: "Forgot password?" }).click();
        await page.waitForURL(/\/password\/forgot/);
        await expectAccessible("Forgot");
        await page.getByLabel("E-mail").fill(memberEmail);
        await page.getByRole("button", { name: "Send the link" }).click();
        expect(await visible(page.getByText("cannot send e-mail, so no link was sent"))).toBe(true);
        await expectAccessible("Forgot, answered");

        // No SMTP here: the operator's link, as `velvet user reset-password` prints it.
        const { resetUrl } = await issueResetLink(app.deps, {
          email: memberEmail,
          actor: cliActor("test"),
        });
        const url = new URL(resetUrl);
        await page.goto(`${app.url}${url.pathname}${url.search}`);
        expect(await visible(page.getByRole("heading", { name: "Choose a new password" }))).toBe(
          true,
        );
        await expectAccessible("Reset");
        await page.getByLabel("New password").fill(LATEST_PASSWORD);
        await page.getByRole("button", { name: "Save password" }).click();
        await page.waitForURL(/notice=password-reset/);
        expect(
          await visible(
            page.getByText("Your password is changed and every session is signed out."),
          ),
        ).toBe(true);
        await logIn(memberEmail, LATEST_PASSWORD);
        await page.goto(`${app.url}${url.pathname}${url.search}`);
        expect(
          await visible(page.getByRole("heading", { name: "This link no longer works" })),
        ).toBe(true);
        await expectAccessible("Used link");
      });

      it("has an axe check that does catch a fault (an unlabelled field)", async () => {
        await chrome.page.evaluate(() => {
          const d = (
            globalThis as unknown as {
              document: { body: { insertAdjacentHTML(p: string, h: string): void } };
            }
          ).document;
          d.body.insertAdjacentHTML("beforeend", '<input type="text" name="unlabelled">');
        });
        expect((await axeViolations(chrome.page)).map((v) => v.id)).toContain("label");
      });
    },
  );
}
