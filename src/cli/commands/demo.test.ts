/**
 * `velvet demo` through the real program, on both engines: adding the sample history, and
 * removing it only with --yes (without it: what would go, nothing changed, exit 0), the real
 * customer kept either way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { SAMPLE_CUSTOMERS } from "../../features/demo/sample-history.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet demo (${engine.name})`, { timeout: 60_000 }, () => {
    let app: TestApp;
    let account: TestAccount;

    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
      const res = await app.submit(account.apiKey, {
        email: "real@acme.com",
        firstName: "Real",
        lastName: "Buyer",
        order: { id: "1", total: "20.00" },
      });
      expect(res.status).toBe(200);
    });
    afterAll(() => app?.close());

    const velvet = (...args: string[]) => runVelvet(args, { DATABASE_URL: app.database.url });
    const customers = async () =>
      (await app.deps.db.kysely.selectFrom("customers").select("sample").execute()).length;

    it("removes the sample data only with --yes", async () => {
      const added = onlyJson(await velvet("demo", "--account", account.accountId, "--json"));
      expect(added).toMatchObject({ added: { customers: SAMPLE_CUSTOMERS } });
      const orders = (added.added as { orders: number }).orders;

      const unconfirmed = await velvet("demo", "--account", account.accountId, "--remove");
      expect(unconfirmed.code).toBe(0);
      expect(unconfirmed.stdout).toContain(
        `Dry run: nothing was changed. Would remove ${SAMPLE_CUSTOMERS} sample customers and ${orders} orders`,
      );
      expect(unconfirmed.stdout).toContain("Run again with --yes");
      expect(
        onlyJson(await velvet("demo", "--account", account.accountId, "--remove", "--json")),
      ).toEqual({ dryRun: true, wouldRemove: { customers: SAMPLE_CUSTOMERS, orders } });
      expect(await customers()).toBe(SAMPLE_CUSTOMERS + 1);

      const removed = onlyJson(
        await velvet("demo", "--account", account.accountId, "--remove", "--yes", "--json"),
      );
      expect(removed).toEqual({ removed: { customers: SAMPLE_CUSTOMERS, orders } });
      expect(await customers()).toBe(1);
    });
  });
}
