/**
 * Every form that changes something refuses a POST without the right CSRF token, or from
 * another origin, with a 403 page, and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  csrfToken,
  HttpBrowser,
  TEST_PASSWORD,
  uniqueEmail,
} from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`CSRF protection on ${engine.name}`, () => {
    let app: TestApp;
    let owner: HttpBrowser;
    let other: HttpBrowser;
    let keyId: string;
    let accountId: string;
    let apiKey: string;

    async function snapshot() {
      const db = app.deps.db.kysely;
      return JSON.stringify({
        accounts: await db.selectFrom("accounts").selectAll().orderBy("id").execute(),
        users: await db.selectFrom("users").select(["id", "password_hash"]).orderBy("id").execute(),
        keys: await db.selectFrom("api_keys").select(["id", "revoked_at"]).orderBy("id").execute(),
        sessions: await db.selectFrom("sessions").select(["id_hash"]).orderBy("id_hash").execute(),
      });
    }

    beforeAll(async () => {
      app = await startTestApp(engine);
      ({ browser: owner, apiKey } = await signInNewAccount(app));
      ({ browser: other } = await signInNewAccount(app));
      const key = await app.deps.db.kysely
        .selectFrom("api_keys")
        .innerJoin("stores", "stores.id", "api_keys.store_id")
        .select(["api_keys.id", "stores.account_id"])
        .orderBy("api_keys.created_at")
        .executeTakeFirstOrThrow();
      keyId = key.id;
      accountId = key.account_id;
    });
    afterAll(() => app?.close());

    const actions = (): Array<{ path: string; fields: Record<string, string> }> => [
      { path: "/logout", fields: {} },
      { path: "/settings/integrations/keys", fields: {} },
      { path: `/settings/integrations/keys/${keyId}/revoke`, fields: {} },
      { path: `/settings/integrations/keys/${keyId}/regenerate`, fields: {} },
      {
        path: "/settings/alerts",
        fields: { threshold: "5", webhook: "", emails: "x@example.com" },
      },
      { path: "/settings/alerts/webhook/remove", fields: {} },
      { path: "/settings/alerts/test", fields: {} },
    ];

    it("refuses a missing, a wrong, and another session's token on every signed-in action", async () => {
      const foreignToken = csrfToken((await other.page("/")).html);
      for (const { path, fields } of actions()) {
        for (const token of [null, "x".repeat(43), foreignToken]) {
          const before = await snapshot();
          const res = await owner.post(path, token === null ? fields : { ...fields, _csrf: token });
          expect(res.status, `${path} with ${token === null ? "no" : "a wrong"} token`).toBe(403);
          expect(await res.text()).toContain("This form has expired");
          expect(await snapshot(), path).toBe(before);
        }
      }
      expect(accountId).toBeTruthy();
    });

    it("refuses a correct token sent from another origin (Origin, or Referer when Origin is absent)", async () => {
      const token = csrfToken((await owner.page("/")).html);
      for (const { path, fields } of actions()) {
        const before = await snapshot();
        const viaOrigin = await owner.post(
          path,
          { ...fields, _csrf: token },
          { origin: "https://evil.example" },
        );
        expect(viaOrigin.status, path).toBe(403);
        const viaReferer = await owner.request("POST", path, {
          body: new URLSearchParams({ ...fields, _csrf: token }).toString(),
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            referer: "https://evil.example/page",
          },
        });
        expect(viaReferer.status, path).toBe(403);
        expect(await snapshot(), path).toBe(before);
      }
    });

    it("refuses sign-in and sign-up forms whose token does not match the visitor's cookie", async () => {
      const { email } = await signInNewAccount(app);
      const before = await snapshot();
      const visitor = new HttpBrowser(app.url);
      await visitor.page("/login");
      const cases: Array<[string, Record<string, string>]> = [
        ["/login", { email, password: TEST_PASSWORD }],
        ["/signup", { storeName: "Forged", email: uniqueEmail(), password: TEST_PASSWORD }],
      ];
      for (const [path, fields] of cases) {
        expect((await visitor.post(path, fields)).status).toBe(403);
        expect((await visitor.post(path, { ...fields, _csrf: "y".repeat(43) })).status).toBe(403);
        // A third-party page cannot read the cookie, so it cannot send a matching token:
        const stranger = new HttpBrowser(app.url);
        expect((await stranger.post(path, { ...fields, _csrf: "z".repeat(43) })).status).toBe(403);
      }
      expect(await snapshot()).toBe(before);
    });

    it("refuses a form body that is not url-encoded with 415, and keeps the API's 415 for forms", async () => {
      const token = csrfToken((await owner.page("/")).html);
      const json = await owner.request("POST", "/settings/integrations/keys", {
        body: JSON.stringify({ _csrf: token }),
        headers: { "content-type": "application/json", origin: app.url },
      });
      expect(json.status).toBe(415);
      expect(json.headers.get("content-type")).toContain("text/html");
      const api = await fetch(`${app.url}/api/v1/orders`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          authorization: `Bearer ${apiKey}`,
        },
        body: "email=a%40example.com",
      });
      expect(api.status).toBe(415);
      expect(await api.json()).toMatchObject({ error: "Unsupported Media Type" });
    });
  });
}
