import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`POST /api/v1/orders on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    it("creates a customer and an order, then reuses both", async () => {
      const body = { email: "Jane@Example.com", firstName: "Jane", lastName: "Doe", order: { id: "1001", total: "250.00" } };
      const first = await app.submit(account.apiKey, body);
      expect(first.status).toBe(200);
      const a = await first.json();
      expect(a).toMatchObject({ success: true, enrichmentStatus: "queued" });
      const again = await (await app.submit(account.apiKey, { ...body, email: " jane@example.com" })).json();
      expect(again).toEqual(a);
    });
  });
}
