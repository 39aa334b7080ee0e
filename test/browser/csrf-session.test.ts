/**
 * CSRF and session behaviour as a real browser sees it: a forged form from another origin and
 * a tampered token are refused (403, nothing changed); the session cookie is out of reach of
 * page scripts; a planted session id is replaced at login; logging out ends the session.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../support/databases.js";
import { startTestApp, type TestApp } from "../support/test-app.js";
import { type ChromiumSession, chromiumAvailable, launchChromium, visible } from "./chromium.js";
import { TEST_PASSWORD, uniqueEmail } from "./http-browser.js";

/** A page on another origin that posts a form to Velvet as soon as it loads. */
async function startAttacker(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/html" });
    res.end(
      `<form id="f" method="post" action="${target}"><input name="threshold" value="0"></form><script>document.getElementById("f").submit()</script>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () =>
      new Promise((resolve) => {
        // The browser keeps its connection alive; close would wait for it forever.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

for (const engine of ENGINES) {
  describe.skipIf(!chromiumAvailable || !engine.available)(
    `CSRF and sessions in Chromium on ${engine.name}`,
    () => {
      let app: TestApp;
      let chrome: ChromiumSession;
      let email: string;

      async function keyCount() {
        const rows = await app.deps.db.kysely.selectFrom("api_keys").select("id").execute();
        return rows.length;
      }

      beforeAll(async () => {
        app = await startTestApp(engine);
        chrome = await launchChromium();
        email = uniqueEmail("csrf");
        const { page } = chrome;
        await page.goto(`${app.url}/signup`);
        await page.getByLabel("Store name").fill("Guarded");
        await page.getByLabel("E-mail").fill(email);
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.getByRole("button", { name: "Create account" }).click();
        await page.waitForURL(/\/settings\/integrations/);
      });
      afterAll(async () => {
        await chrome?.close();
        await app?.close();
      });

      it("keeps the session cookie HttpOnly and SameSite=Lax, out of reach of page scripts", async () => {
        const cookies = await chrome.context.cookies(app.url);
        const session = cookies.find((c) => c.name === "velvet_session");
        expect(session).toMatchObject({
          httpOnly: true,
          sameSite: "Lax",
          path: "/",
          secure: false,
        });
        expect(await chrome.page.evaluate("document.cookie")).not.toContain("velvet_session");
      });

      it("refuses a tampered token with the 403 page and changes nothing", async () => {
        const { page } = chrome;
        await page.goto(`${app.url}/settings/integrations`);
        const before = await keyCount();
        await page.evaluate(
          `for (const input of document.querySelectorAll('input[name="_csrf"]')) input.value = "forged";`,
        );
        await page.getByRole("button", { name: "Generate a new key" }).click();
        expect(await visible(page.getByRole("heading", { name: "This form has expired" }))).toBe(
          true,
        );
        expect(await keyCount()).toBe(before);
      });

      it("refuses a form posted from another origin, though the browser sends the session cookie", async () => {
        const attacker = await startAttacker(`${app.url}/settings/alerts`);
        try {
          const { page } = chrome;
          const threshold = async () =>
            (
              await app.deps.db.kysely
                .selectFrom("accounts")
                .select("vip_threshold")
                .executeTakeFirstOrThrow()
            ).vip_threshold;
          const before = await threshold();
          const response = page.waitForResponse(
            (r) => r.url() === `${app.url}/settings/alerts` && r.request().method() === "POST",
          );
          await page.goto(attacker.url);
          expect((await response).status()).toBe(403);
          expect(await visible(page.getByRole("heading", { name: "This form has expired" }))).toBe(
            true,
          );
          expect(await threshold()).toBe(before);
        } finally {
          await attacker.close();
        }
      });

      it("replaces a planted session id at login, and ends the session at logout", async () => {
        const { page, context } = chrome;
        await page.goto(`${app.url}/`);
        await page.getByRole("button", { name: "Log out" }).click();
        await page.waitForURL(`${app.url}/login?notice=logged-out`);
        expect(await visible(page.getByText("You are logged out."))).toBe(true);
        await page.goto(`${app.url}/customers`);
        expect(page.url()).toBe(`${app.url}/login?next=%2Fcustomers`);

        const planted = "p".repeat(43);
        await context.addCookies([
          { name: "velvet_session", value: planted, url: app.url, httpOnly: true, sameSite: "Lax" },
        ]);
        await page.getByLabel("E-mail").fill(email);
        await page.getByLabel("Password").fill(TEST_PASSWORD);
        await page.getByRole("button", { name: "Log in" }).click();
        await page.waitForURL(`${app.url}/customers`);
        const session = (await context.cookies(app.url)).find((c) => c.name === "velvet_session");
        expect(session?.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(session?.value).not.toBe(planted);
      });
    },
  );
}
