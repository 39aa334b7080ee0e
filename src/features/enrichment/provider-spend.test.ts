/**
 * The provider spend ledger through the real app: fake providers that count their calls, a
 * worker, the ledger, `velvet usage --json` and Settings → Billing, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HttpBrowser } from "../../../test/browser/http-browser.js";
import {
  type FakeProviders,
  fullContactQueued,
  startFakeProviders,
} from "../../../test/fakes/providers/index.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { monthOf } from "../billing/get-usage.js";
import { getProviderSpend } from "../billing/provider-spend.js";
import { getCustomerReport } from "../customers/get-customer-report.js";

const BILLED = ["pdl", "enrichlayer", "fullcontact", "gravatar"] as const;
const PRICES = {
  PDL_PRICE_USD: "0.28",
  ENRICHLAYER_PRICE_USD: "0.3",
  FULLCONTACT_PRICE_USD: "0.1",
  GRAVATAR_PRICE_USD: "0",
};
const FAST = { PROVIDER_TIMEOUT_MS: "2000", GRAVATAR_RATE_LIMIT_PER_MIN: "6000" };

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`provider spend on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let app: TestApp;
    let accountId: string;
    let apiKey: string;
    let browser: HttpBrowser;

    beforeAll(async () => {
      fakes = await startFakeProviders();
      // The four providers whose bills PRICES and the test spell out.
      const env = { ...fakes.envFor(BILLED), ...PRICES, ...FAST };
      app = await startTestApp(engine, { worker: true, env });
      const signed = await signInNewAccount(app);
      ({ browser, apiKey } = signed);
      accountId = signed.accountId;
    });
    afterAll(async () => {
      await app?.close();
      await fakes?.close();
    });

    const enriched = async (email: string) => {
      const res = await app.submit(apiKey, { email, firstName: "Ada", lastName: "Lovelace" });
      expect(res.status).toBe(200);
      await waitFor(
        `${email} enriched`,
        async () =>
          (await getCustomerReport(app.deps.db.kysely, accountId, { email }))?.enrichment.status ===
          "enriched",
        20_000,
      );
    };

    it("counts each lookup as its provider bills it, per provider, month and account", async () => {
      const stamp = `${engine.name}-${Date.now()}`;
      const found = `found-${stamp}@acme-corp.com`;
      const missing = `missing-${stamp}@acme-corp.com`;
      await enriched(found);
      // PDL's 404 is free; EnrichLayer fails once (free) and answers on the retry (billed);
      // FullContact is still searching (202, free), then finds nobody (404, free).
      fakes.pdl.setBehaviour(missing, { kind: "not_found" });
      fakes.enrichlayer.setBehaviour(missing, [{ kind: "error", status: 503 }, { kind: "match" }]);
      fakes.fullcontact.setBehaviour(missing, [
        { kind: "raw", ...fullContactQueued },
        { kind: "not_found" },
      ]);
      fakes.gravatar.setBehaviour(missing, { kind: "not_found" });
      await enriched(missing);

      expect(fakes.pdl.requestCount()).toBe(2);
      expect(fakes.enrichlayer.requestCount()).toBe(3);
      expect(fakes.fullcontact.requestCount()).toBe(3);
      const month = monthOf(Date.now());
      expect(await getProviderSpend(app.deps.db.kysely, accountId, month)).toEqual({
        providers: [
          { provider: "enrichlayer", lookups: 2, amountUsd: "0.60" },
          { provider: "fullcontact", lookups: 1, amountUsd: "0.10" },
          { provider: "gravatar", lookups: 1, amountUsd: "0.00" },
          { provider: "pdl", lookups: 1, amountUsd: "0.28" },
        ],
        providerCostUsd: "0.98",
      });
      // Another account's ledger is its own.
      const other = await app.createAccount();
      expect(await getProviderSpend(app.deps.db.kysely, other.accountId, month)).toEqual({
        providers: [],
        providerCostUsd: "0.00",
      });

      const usage = onlyJson(
        await runVelvet(["usage", "--account", accountId, "--month", month, "--json"], {
          DATABASE_URL: app.database.url,
          ...PRICES,
        }),
      );
      expect(usage).toMatchObject({ month, enrichments: 2, providerCostUsd: "0.98" });
      expect(usage.providers).toContainEqual({ provider: "pdl", lookups: 1, amountUsd: "0.28" });

      const { html } = await browser.page("/settings/billing");
      expect(html).toContain("Provider costs");
      expect(html).toMatch(
        /People Data Labs<\/td>\s*<td data-label="Billed lookups" class="num">1<\/td>\s*<td data-label="Cost" class="num nowrap">\$0\.28<\/td>/,
      );
      expect(html).toMatch(/All providers<\/th>.*\$0\.98/s);
    });
  });
}
