/**
 * The monthly budget through the real app, on both engines: fake providers that count their
 * calls, many new customers enriched at once by concurrent workers, a budget that never
 * overspends, orders that keep flowing and scoring, and a full lookup once the budget is raised
 * (`velvet account set --monthly-budget`).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../test/browser/http-browser.js";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { toMicros } from "../../lib/decimal.js";
import { getAccount } from "../accounts/get-account.js";
import { monthOf } from "../billing/get-usage.js";
import { getProviderSpend } from "../billing/provider-spend.js";

const BILLED = ["pdl", "enrichlayer", "fullcontact", "gravatar"] as const;
const PRICES = {
  PDL_PRICE_USD: "0.28",
  ENRICHLAYER_PRICE_USD: "0.3",
  FULLCONTACT_PRICE_USD: "0.1",
  GRAVATAR_PRICE_USD: "0",
};
const ENV = {
  ...PRICES,
  PROVIDER_TIMEOUT_MS: "3000",
  GRAVATAR_RATE_LIMIT_PER_MIN: "6000",
  WORKER_CONCURRENCY: "20",
};
const CUSTOMERS = 10;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`monthly budget on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let app: TestApp;
    let smtp: TestSmtpServer;
    let account: { accountId: string; apiKey: string; email: string; browser: HttpBrowser };

    beforeAll(async () => {
      // Slow answers keep many lookups in flight at once.
      fakes = await startFakeProviders({ defaultBehaviour: { kind: "match", delay: 150 } });
      smtp = await startSmtpServer();
      app = await startTestApp(engine, {
        worker: true,
        // The four providers whose bills PRICES and the budget's arithmetic spell out.
        env: { ...fakes.envFor(BILLED), ...ENV, SMTP_URL: smtp.url },
      });
      account = await signInNewAccount(app);
    });
    afterAll(async () => {
      await app?.close();
      await fakes?.close();
      await smtp?.close();
    });

    const velvet = (...args: string[]) =>
      runVelvet(args, { DATABASE_URL: app.database.url, ...PRICES });
    const deferred = async () =>
      (
        await app.deps.db.kysely
          .selectFrom("enrichments")
          .select("customer_id")
          .where("paid_lookups_deferred", "<>", 0)
          .execute()
      ).length;
    const enriched = async () =>
      (
        await app.deps.db.kysely
          .selectFrom("customers")
          .innerJoin("stores", "stores.id", "customers.store_id")
          .select("customers.id")
          .where("stores.account_id", "=", account.accountId)
          .where("enrichment_status", "=", "enriched")
          .execute()
      ).length;
    const paidCallsUsd = () =>
      0.28 * fakes.pdl.requestCount() +
      0.3 * fakes.enrichlayer.requestCount() +
      0.1 * fakes.fullcontact.requestCount();

    it("never spends past the budget, keeps scoring, and looks up fully when it is raised", async () => {
      expect(
        onlyJson(
          await velvet(
            "account",
            "set",
            "--account",
            account.accountId,
            "--monthly-budget",
            "1.50",
            "--json",
          ),
        ),
      ).toMatchObject({ monthlyBudgetUsd: "1.50" });
      const stamp = `${engine.name}-${Date.now()}`;
      const answers = await Promise.all(
        Array.from({ length: CUSTOMERS }, (_, i) =>
          app.submit(account.apiKey, {
            email: `budget-${stamp}-${i}@acme-corp.com`,
            firstName: "Ada",
            lastName: "Lovelace",
            order: { id: `b-${stamp}-${i}`, number: `#${i}`, total: "950.00" },
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(CUSTOMERS).fill(200));
      await waitFor("all scored", async () => (await enriched()) === CUSTOMERS, 30_000);

      // $0.68 a full lookup: two fit in $1.50 (91 %), a third would not.
      const month = monthOf(Date.now());
      const spend = await getProviderSpend(app.deps.db.kysely, account.accountId, month);
      expect(toMicros(spend.providerCostUsd)).toBeLessThanOrEqual(toMicros("1.5"));
      expect(paidCallsUsd()).toBeLessThanOrEqual(1.5);
      expect(fakes.pdl.requestCount()).toBe(2);
      expect(await deferred()).toBe(CUSTOMERS - 2);
      // The free provider was asked about everyone; everyone was scored and told why.
      expect(fakes.gravatar.requestCount()).toBe(CUSTOMERS);
      const held = await app.deps.db.kysely
        .selectFrom("enrichments")
        .select(["signals", "score"])
        .where("paid_lookups_deferred", "<>", 0)
        .executeTakeFirstOrThrow();
      expect(held.score).toEqual(expect.any(Number));
      const signals = JSON.parse(held.signals) as Array<{ signal: string; value: string }>;
      expect(signals.find((s) => s.signal === "paid_lookups")?.value).toMatch(
        /stopped by the monthly budget \(pdl, enrichlayer, fullcontact\)/,
      );

      // The owner hears once at 80 % and once when the budget stops the paid lookups.
      const mails = await smtp.waitForMessages(2, 15_000);
      const subjects = mails.map((m) => m.parsed.subject ?? "").sort();
      expect(subjects).toEqual([
        "Velvet: 80 % of this month's lookup budget is spent ($1.36 of $1.50)",
        "Velvet: this month's lookup budget is reached; paid lookups have stopped",
      ]);
      expect(mails.every((m) => m.rcptTo.includes(account.email.toLowerCase()))).toBe(true);
      const { html } = await account.browser.page("/");
      expect(html).toMatch(/id="budget-notice"[^>]*><p>[^<]*paid provider lookups have stopped/);

      // Raised: the held-back customers are looked up fully, within the new budget.
      await velvet("account", "set", "--account", account.accountId, "--monthly-budget", "20");
      await waitFor("looked up fully", async () => (await deferred()) === 0, 30_000);
      expect((await account.browser.page("/")).html).not.toContain("budget-notice");
      expect(fakes.pdl.requestCount()).toBe(CUSTOMERS);
      expect(fakes.gravatar.requestCount()).toBe(CUSTOMERS);
      const after = await getProviderSpend(app.deps.db.kysely, account.accountId, month);
      expect(after.providerCostUsd).toBe("6.80");

      await velvet("account", "set", "--account", account.accountId, "--monthly-budget", "");
      expect((await getAccount(app.deps, account.accountId))?.monthlyBudgetUsd).toBeNull();
    });
  });
}
