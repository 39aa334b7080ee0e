/**
 * Tiers and lists through the real program, on both engines: `account set --tiers` (refused
 * with the reasons, then set and cleared), `customer show --json` with the customer's `tier`,
 * and `customer list --vip --csv` / `--json`, where a name a spreadsheet would run as a formula
 * is written as text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditDetails } from "../../../test/support/audit-details.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { seedListedCustomers } from "../../../test/support/customer-list-fixtures.js";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../test/support/test-deps.js";
import { createAccount } from "../../features/accounts/create-account.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet tiers and customer list on ${engine.name}`, () => {
    let t: TestDeps;
    let accountId: string;
    const env = () => ({ DATABASE_URL: t.database.url });

    beforeAll(async () => {
      t = await startTestDeps(engine);
      const account = await createAccount(
        t.deps.db.kysely,
        { name: "CLI lists", ownerEmail: "owner@cli-lists.example", passwordHash: null },
        Date.now(),
      );
      accountId = account.accountId;
      await seedListedCustomers(t.deps.db.kysely, account.storeId, [
        {
          email: "formula@example.com",
          firstName: '=HYPERLINK("http://evil.example","x")',
          lastName: "",
          score: 93,
          vip: true,
          orders: [{ total: "300.00", currency: "USD" }],
        },
        { email: "silver@example.com", firstName: "Sil", lastName: "Ver", score: 82, vip: true },
        { email: "plain@example.com", firstName: "Plain", score: 40, vip: false },
      ]);
    }, 60_000);
    afterAll(() => t?.close());

    it("refuses bad tiers with every reason, then sets them, and customer show names the tier", async () => {
      const bad = await runVelvet(
        ["account", "set", "--account", accountId, "--tiers", "Gold:90,gold:80,Top:101"],
        env(),
      );
      expect(bad.code).not.toBe(0);
      expect(bad.stdout).toBe("");
      expect(bad.stderr).toContain('two tiers are named "Gold"');
      expect(bad.stderr).toContain('the floor of "Top" must be a whole number from 0 to 100');

      const set = onlyJson(
        await runVelvet(
          ["account", "set", "--account", accountId, "--tiers", "Silver:80, Gold:90", "--json"],
          env(),
        ),
      );
      expect(set.tiers).toEqual([
        { name: "Gold", floor: 90 },
        { name: "Silver", floor: 80 },
      ]);
      const shown = onlyJson(
        await runVelvet(
          ["customer", "show", "--account", accountId, "--email", "silver@example.com", "--json"],
          env(),
        ),
      );
      expect(shown).toMatchObject({ email: "silver@example.com", tier: "Silver" });
      const none = onlyJson(
        await runVelvet(
          ["customer", "show", "--account", accountId, "--email", "plain@example.com", "--json"],
          env(),
        ),
      );
      expect(none.tier).toBeNull();
      // The change is in the audit trail, before and after.
      expect(
        await auditDetails(t.deps.db.kysely, accountId, "alert_settings.changed"),
      ).toContainEqual({
        tiers: { from: "none", to: "Gold:90, Silver:80" },
      });
    });

    it("lists the VIPs as CSV with the formula-like name as text, and as one JSON object", async () => {
      const csv = await runVelvet(
        ["customer", "list", "--account", accountId, "--vip", "--csv"],
        env(),
      );
      expect(csv.code).toBe(0);
      const lines = csv.stdout.split("\r\n");
      expect(lines[0]).toBe(
        '"email","name","score","tier","vip","vip_since","lifetime_spend","currency","order_count"',
      );
      expect(lines[1]).toMatch(
        /^"formula@example\.com","'=HYPERLINK\(""http:\/\/evil\.example"",""x""\)",93,"Gold",true,"[^"]+","300\.00","USD",1$/,
      );
      expect(lines[2]).toMatch(/^"silver@example\.com","Sil Ver",82,"Silver",true,/);
      expect(lines.slice(3)).toEqual([""]);

      const json = onlyJson(
        await runVelvet(
          ["customer", "list", "--account", accountId, "--tier", "gold", "--json"],
          env(),
        ),
      );
      expect(json.customers).toEqual([
        expect.objectContaining({ email: "formula@example.com", tier: "Gold", orderCount: 1 }),
      ]);
      // Both lists are in the audit trail, with their format and filters.
      expect(await auditDetails(t.deps.db.kysely, accountId, "customers.listed")).toEqual([
        { format: "csv", filters: "VIPs only" },
        { format: "json", filters: "tier gold" },
      ]);
    });

    it("refuses a missing format and an unknown tier, naming the tiers there are", async () => {
      const noFormat = await runVelvet(["customer", "list", "--account", accountId], env());
      expect(noFormat.code).not.toBe(0);
      expect(noFormat.stderr).toContain("Choose one format: --csv or --json.");
      const unknown = await runVelvet(
        ["customer", "list", "--account", accountId, "--tier", "Bronze", "--csv"],
        env(),
      );
      expect(unknown.code).not.toBe(0);
      expect(unknown.stdout).toBe("");
      expect(unknown.stderr).toContain('has no tier "Bronze": its tiers are Gold:90, Silver:80.');
      const cleared = onlyJson(
        await runVelvet(["account", "set", "--account", accountId, "--tiers", "", "--json"], env()),
      );
      expect(cleared.tiers).toEqual([]);
    });
  });
}
