/**
 * `velvet customer show`: the real program, against a database where the real app took an
 * order and the real worker enriched it (offline signals only: no provider is configured).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { sqliteEngine } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { updateAccount } from "../../features/accounts/update-account.js";

describe("velvet customer show", () => {
  let app: TestApp;
  let account: TestAccount;
  const email = "Ada.Lovelace@Analytical-Engines.example.org";

  beforeAll(async () => {
    app = await startTestApp(sqliteEngine, { worker: true });
    account = await app.createAccount();
    const res = await app.submit(account.apiKey, {
      email,
      firstName: "Ada",
      lastName: "Lovelace",
      order: { id: "A-1", number: "1001", total: "120.50", currency: "gbp" },
    });
    expect(res.status).toBe(200);
    await waitFor("enriched", async () => {
      const row = await app.deps.db.kysely
        .selectFrom("customers")
        .select("enrichment_status")
        .executeTakeFirst();
      return row?.enrichment_status === "enriched";
    });
  }, 60_000);
  afterAll(() => app?.close());

  const env = () => ({ DATABASE_URL: app.database.url });

  it("prints the customer, the explained enrichment and the orders as one JSON object", async () => {
    const shown = onlyJson(
      await runVelvet(
        [
          "customer",
          "show",
          "--account",
          account.accountId,
          "--email",
          " ada.lovelace@analytical-engines.example.org",
          "--json",
        ],
        env(),
      ),
    );
    expect(shown).toMatchObject({
      customerId: expect.any(String),
      email,
      firstName: "Ada",
      lastName: "Lovelace",
      enrichment: { status: "enriched", vip: false, attempts: 1, lastError: null, threshold: 70 },
      orders: [{ externalId: "A-1", number: "1001", total: "120.50", currency: "GBP" }],
      verdict: null,
    });
    const enrichment = shown.enrichment as {
      score: number;
      signals: Array<{ points: number; value: unknown }>;
    };
    expect(enrichment.signals.reduce((sum, s) => sum + s.points, 0)).toBe(enrichment.score);
    expect(enrichment.signals.some((s) => s.value === "no enrichment provider configured")).toBe(
      true,
    );
  });

  it("shows the lifetime spend of later orders and when and why the customer became a VIP", async () => {
    // A low line, then two more orders: the periodic re-judge promotes Ada on her history.
    await updateAccount(app.deps.db.kysely, account.accountId, { vipThreshold: 1 });
    for (const id of ["A-2", "A-3"]) {
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Ada",
        lastName: "Lovelace",
        order: { id, total: "100.00", currency: "GBP" },
      });
      expect(res.status).toBe(200);
    }
    await waitFor(
      "the re-judge",
      async () => {
        const row = await app.deps.db.kysely
          .selectFrom("enrichments")
          .select("vip_change_reason")
          .executeTakeFirst();
        return row?.vip_change_reason !== null && row?.vip_change_reason !== undefined;
      },
      20_000,
    );
    const shown = onlyJson(
      await runVelvet(
        ["customer", "show", "--account", account.accountId, "--email", email, "--json"],
        env(),
      ),
    );
    const enrichment = shown.enrichment as Record<string, unknown> & {
      signals: Array<{ signal: string; value: unknown; points: number }>;
    };
    expect(enrichment).toMatchObject({
      vip: true,
      vipSince: enrichment.vipChangedAt,
      vipChangeReason: expect.stringMatching(/^now a VIP: £\d+\.\d\d over \d orders$/),
      rejudgedAt: expect.any(String),
    });
    expect(enrichment.signals).toContainEqual(
      expect.objectContaining({
        signal: "lifetime_spend",
        // Pounds, converted at the shipped reference rate for the dollar bands.
        value: expect.stringMatching(
          /^£\d+\.\d\d over \d orders ≈ \$[\d,]+\.\d\d at [\d.]+ USD\/GBP, ECB \d{4}-\d\d-\d\d$/,
        ),
      }),
    );
    // Re-judged against the line in force now, and reported with it.
    await updateAccount(app.deps.db.kysely, account.accountId, { vipThreshold: 70 });
  });

  it("refuses an unknown customer or account with a message and a non-zero exit", async () => {
    const unknownCustomer = await runVelvet(
      [
        "customer",
        "show",
        "--account",
        account.accountId,
        "--email",
        "nobody@example.org",
        "--json",
      ],
      env(),
    );
    expect(unknownCustomer.code).not.toBe(0);
    expect(unknownCustomer.stdout).toBe("");
    expect(unknownCustomer.stderr).toContain("No customer nobody@example.org");

    const otherAccount = "00000000-0000-7000-8000-000000000000";
    const unknownAccount = await runVelvet(
      ["customer", "show", "--account", otherAccount, "--email", email, "--json"],
      env(),
    );
    expect(unknownAccount.code).not.toBe(0);
    expect(unknownAccount.stderr).toContain(`No account ${otherAccount}`);
  });
});
