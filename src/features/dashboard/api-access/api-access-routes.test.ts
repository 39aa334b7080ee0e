import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HttpBrowser, newKeyOnPage } from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

const ORDER = { email: "jane@example.com", firstName: "Jane", lastName: "Doe" };

function keyIdsOnPage(html: string): string[] {
  return [...html.matchAll(/\/settings\/integrations\/keys\/([0-9a-f-]{36})\/revoke/g)].map(
    (m) => m[1] as string,
  );
}

async function post(browser: HttpBrowser, action: string) {
  const res = await browser.submit("/settings/integrations", action);
  expect(res.status, action).toBe(303);
  return browser.page(res.headers.get("location") ?? "/");
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `Settings → Integrations → API Access on ${engine.name}`,
    () => {
      let app: TestApp;
      beforeAll(async () => {
        app = await startTestApp(engine, {
          env: { PUBLIC_BASE_URL: "https://velvet.example.com/" },
        });
      });
      afterAll(() => app?.close());

      it("lists keys by prefix and last 4 only, with a curl example using PUBLIC_BASE_URL", async () => {
        const { browser, apiKey } = await signInNewAccount(app);
        const { html } = await browser.page("/settings/integrations");
        expect(html).not.toContain(apiKey);
        expect(html).toContain(`sk_live_…${apiKey.slice(-4)}`);
        expect(html).toContain("Never");
        expect(html).toContain("curl -X POST https://velvet.example.com/api/v1/orders");
        expect(html).toContain("Authorization: Bearer $VELVET_API_KEY");
        await app.submit(apiKey, ORDER);
        const used = await browser.page("/settings/integrations");
        expect(used.html).not.toContain(">Never<");
      });

      it("generates a key shown once (after a redirect), with the warning and a copy button, that works at once", async () => {
        const { browser } = await signInNewAccount(app);
        const { html, url } = await post(browser, "/settings/integrations/keys");
        expect(url).toBe("/settings/integrations");
        const key = newKeyOnPage(html);
        expect(key).toMatch(/^sk_live_/);
        expect(html).toContain("it will not be shown again");
        expect(html).toContain('data-copy="new-key"');
        expect(html).toContain(`export VELVET_API_KEY=&quot;${key}&quot;`);
        expect(keyIdsOnPage(html)).toHaveLength(2);
        expect((await app.submit(key, ORDER)).status).toBe(200);
        const reload = await browser.page("/settings/integrations");
        expect(newKeyOnPage(reload.html)).toBeNull();
        expect(reload.html).not.toContain(key as string);
      });

      it("revokes a key: the API answers 401 to it from the next request", async () => {
        const { browser, apiKey } = await signInNewAccount(app);
        const [keyId] = keyIdsOnPage((await browser.page("/settings/integrations")).html);
        const { html } = await post(browser, `/settings/integrations/keys/${keyId}/revoke`);
        expect(html).toContain("The key is revoked");
        expect(html).toContain("Revoked");
        expect(keyIdsOnPage(html)).toHaveLength(0);
        expect(html).toContain("You have no active key");
        const res = await app.submit(apiKey, ORDER);
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({
          error: "Unauthorized",
          message: "Invalid or missing API key",
        });
        const again = await post(browser, `/settings/integrations/keys/${keyId}/revoke`);
        expect(again.html).toContain("already revoked");
      });

      it("regenerates: the old key is revoked and the new one shown once, in one step", async () => {
        const { browser, apiKey } = await signInNewAccount(app);
        const [keyId] = keyIdsOnPage((await browser.page("/settings/integrations")).html);
        const { html } = await post(browser, `/settings/integrations/keys/${keyId}/regenerate`);
        const fresh = newKeyOnPage(html);
        expect(fresh).toMatch(/^sk_live_/);
        expect(fresh).not.toBe(apiKey);
        expect((await app.submit(apiKey, ORDER)).status).toBe(401);
        expect((await app.submit(fresh, ORDER)).status).toBe(200);
        const rows = await app.deps.db.kysely
          .selectFrom("api_keys")
          .select(["id", "revoked_at"])
          .where(
            "store_id",
            "=",
            (
              await app.deps.db.kysely
                .selectFrom("api_keys")
                .select("store_id")
                .where("id", "=", keyId as string)
                .executeTakeFirstOrThrow()
            ).store_id,
          )
          .execute();
        expect(rows).toHaveLength(2);
        expect(rows.filter((r) => r.revoked_at === null)).toHaveLength(1);
        // A second regenerate of the same (now revoked) key issues nothing.
        const twice = await post(browser, `/settings/integrations/keys/${keyId}/regenerate`);
        expect(newKeyOnPage(twice.html)).toBeNull();
        expect(twice.html).toContain("already revoked");
      });

      it("shows a flashed key only to the session it was made for", async () => {
        const { browser } = await signInNewAccount(app);
        const res = await browser.submit("/settings/integrations", "/settings/integrations/keys");
        const flash = res.headers.getSetCookie().find((c) => c.startsWith("velvet_new_key="));
        expect(flash).toContain("Path=/settings/integrations");
        expect(flash).toContain("HttpOnly");
        const { browser: thief } = await signInNewAccount(app);
        await thief.page("/settings/integrations");
        const sealed = browser.cookies.get("velvet_new_key")?.value ?? "";
        expect(sealed).not.toMatch(/sk_live_/);
        thief.cookies.set("velvet_new_key", { value: sealed, path: "/settings/integrations" });
        expect(newKeyOnPage((await thief.page("/settings/integrations")).html)).toBeNull();
        expect(newKeyOnPage((await browser.page("/settings/integrations")).html)).toMatch(
          /^sk_live_/,
        );
      });
    },
  );
}
