/**
 * A match below its provider's confidence minimum is not paid for and adds no points: Velvet
 * sends PDL_MIN_LIKELIHOOD (6, as PDL advises) as PDL's `min_likelihood`, PDL answers a weaker
 * match with its unbilled 404, and the ledger counts only the match it billed. Through the real
 * app, on both engines.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { monthOf } from "../billing/get-usage.js";
import { getProviderSpend } from "../billing/provider-spend.js";
import { getCustomerReport } from "../customers/get-customer-report.js";

/** PDL's record of a CEO, which PDL believes is the person asked about at `likelihood`. */
const pdlAnswer = (likelihood: number) => ({
  kind: "match" as const,
  person: { pdlLikelihood: likelihood },
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`low-confidence matches on ${engine.name}`, () => {
    let fakes: FakeProviders;
    let app: TestApp;
    let account: TestAccount;

    beforeAll(async () => {
      fakes = await startFakeProviders({ defaultBehaviour: { kind: "not_found" } });
      const env = { ...fakes.env, GRAVATAR_RATE_LIMIT_PER_MIN: "6000", PDL_PRICE_USD: "0.28" };
      app = await startTestApp(engine, { worker: true, env });
      account = await app.createAccount();
    });
    afterAll(async () => {
      await app?.close();
      await fakes?.close();
    });

    const scored = async (email: string) => {
      const res = await app.submit(account.apiKey, {
        email,
        firstName: "Ada",
        lastName: "Lovelace",
      });
      expect(res.status).toBe(200);
      const report = () => getCustomerReport(app.deps.db.kysely, account.accountId, { email });
      await waitFor(
        "enriched",
        async () => (await report())?.enrichment.status === "enriched",
        15_000,
      );
      const e = (await report())?.enrichment;
      return e?.signals as Array<{
        signal: string;
        value: unknown;
        points: number;
        confidence?: string;
      }>;
    };

    it("asks PDL for its minimum: a weaker match is PDL's free 404 and adds no points", async () => {
      const stamp = `${engine.name}-${Date.now()}`;
      const unsure = `unsure-${stamp}@acme-corp.com`;
      const sure = `sure-${stamp}@acme-corp.com`;
      fakes.pdl.setBehaviour(unsure, pdlAnswer(4));
      fakes.pdl.setBehaviour(sure, pdlAnswer(6));

      const low = await scored(unsure);
      expect(low.find((s) => s.signal === "seniority")).toBeUndefined();
      expect(low.find((s) => s.signal === "provider_match")?.value).toBe("no provider matched");
      const asked = fakes.pdl.requests.find((r) => r.email === unsure.toLowerCase());
      expect(asked?.query.min_likelihood).toBe("6");
      expect(fakes.pdl.billedCount()).toBe(0);

      const high = await scored(sure);
      // Each line from a provider's data carries that provider's confidence in the match.
      expect(high.find((s) => s.signal === "seniority")).toMatchObject({
        points: expect.any(Number),
        confidence: "pdl: likelihood 6/10",
      });
      expect(high.find((s) => s.signal === "seniority")?.points).toBeGreaterThan(0);
      expect(high.find((s) => s.signal === "order_value")?.confidence).toBeUndefined();
      expect(high.find((s) => s.signal === "low_confidence")).toBeUndefined();

      const spend = await getProviderSpend(
        app.deps.db.kysely,
        account.accountId,
        monthOf(Date.now()),
      );
      // Only the match PDL billed is in the ledger, as in PDL's own count.
      expect(fakes.pdl.billedCount()).toBe(1);
      expect(spend.providers).toContainEqual({ provider: "pdl", lookups: 1, amountUsd: "0.28" });
    });
  });
}
