/** `X-Content-Type-Options: nosniff` on every answer: API JSON, its errors, 413s, pages, assets. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../test/support/databases.js";
import { startTestApp, type TestAccount, type TestApp } from "../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`nosniff on every answer on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    it("is sent with 200, 400, 401, 404, 405, 413 and 415 from the API and with pages", async () => {
      const order = { email: "a@example.com", firstName: "A", lastName: "B" };
      const answers: Array<[string, Response]> = [
        ["200", await app.submit(account.apiKey, order)],
        ["400", await app.submit(account.apiKey, { email: "a@example.com" })],
        ["401", await app.submit(null, order)],
        ["404", await fetch(`${app.url}/api/v1/nope`)],
        ["405", await fetch(`${app.url}/api/v1/orders`)],
        ["413", await app.submit(account.apiKey, JSON.stringify({ pad: "x".repeat(1_100_000) }))],
        [
          "415",
          await app.submit(account.apiKey, "email=a", {
            headers: { "content-type": "text/plain" },
          }),
        ],
        ["bad URL", await fetch(`${app.url}/api/v1/orders/%E0%A4%A`)],
        ["page", await fetch(`${app.url}/login`)],
        ["page 404", await fetch(`${app.url}/nowhere`)],
      ];
      for (const [what, res] of answers) {
        expect(res.headers.get("x-content-type-options"), what).toBe("nosniff");
        await res.arrayBuffer();
      }
      expect(answers.map(([, r]) => r.status)).toEqual([
        200, 400, 401, 404, 405, 413, 415, 400, 200, 404,
      ]);
    });
  });
}
