/**
 * A match below its provider's confidence minimum adds no points and the explanation says why:
 * PDL's likelihood under PDL_MIN_LIKELIHOOD (6, as PDL advises), through the real app, on both
 * engines. PDL still billed the 200, so the ledger counts it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeProviders, startFakeProviders } from "../../../test/fakes/providers/index.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { monthOf } from "../billing/get-usage.js";
import { getProviderSpend } from "../billing/provider-spend.js";
import { getCustomerReport } from "../customers/get-customer-report.js";

/** PDL's answer for a person it is not sure of: a CEO, at likelihood `likelihood`. */
const pdlAnswer = (likelihood: number) => ({
  kind: "raw" as const,
  status: 200,
  body: {
    status: 200,
    likelihood,
    data: {
      full_name: "ada lovelace",
      job_title: "chief executive officer",
      job_title_levels: ["cxo"],
    },
  },
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

    it("adds no points below the minimum, says so, and counts the billed answer", async () => {
      const stamp = `${engine.name}-${Date.now()}`;
      const unsure = `unsure-${stamp}@acme-corp.com`;
      const sure = `sure-${stamp}@acme-corp.com`;
      fakes.pdl.setBehaviour(unsure, pdlAnswer(4));
      fakes.pdl.setBehaviour(sure, pdlAnswer(6));

      const low = await scored(unsure);
      expect(low.find((s) => s.signal === "seniority")).toBeUndefined();
      expect(low.find((s) => s.signal === "provider_match")?.value).toBe("no provider matched");
      expect(low.find((s) => s.signal === "low_confidence")).toEqual({
        source: "profile",
        signal: "low_confidence",
        value: "pdl: likelihood 4 is below the minimum of 6: treated as no match",
        points: 0,
      });

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
      expect(spend.providers).toContainEqual({ provider: "pdl", lookups: 2, amountUsd: "0.56" });
    });
  });
}
