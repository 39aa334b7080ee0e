/**
 * What every provider adapter must do with the failures the providers can produce, run against
 * that provider's fake: 404 is a miss, a wrong key and the other refusals are permanent, 429
 * and 5xx are transient (Retry-After honoured), timeouts, aborts and unreachable hosts are
 * transient, a malformed 200 is permanent. Called from each adapter's test file.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type {
  EnrichmentProvider,
  PermanentCause,
  ProviderName,
  ProviderResult,
} from "../../../src/features/enrichment/providers/provider.js";
import type { FakeProvider } from "./fake-server.js";
import { providerQuery } from "./person.js";

export interface AdapterContract {
  provider: ProviderName;
  start(): Promise<FakeProvider>;
  create(fake: FakeProvider, apiKey?: string): EnrichmentProvider;
  /** Statuses this provider documents as permanent, with the cause the adapter must give. */
  permanent: Array<[number, PermanentCause]>;
  transient: number[];
}

const EMAIL = "contract.case@example.com";

export function describeAdapterContract(contract: AdapterContract): void {
  describe(`${contract.provider} adapter: failures as values`, () => {
    let fake: FakeProvider;
    let adapter: EnrichmentProvider;
    const lookup = (
      signal: AbortSignal = AbortSignal.timeout(5_000),
      using = adapter,
    ): Promise<ProviderResult> => using.lookup(providerQuery(EMAIL), signal);

    beforeAll(async () => {
      fake = await contract.start();
      adapter = contract.create(fake);
    });
    afterAll(() => fake.close());
    beforeEach(() => fake.reset());

    it("answers not_found on 404", async () => {
      fake.setBehaviour(EMAIL, { kind: "not_found" });
      const result = await lookup();
      expect(result).toMatchObject({
        kind: "not_found",
        provider: contract.provider,
        httpStatus: 404,
      });
    });

    it("answers permanent (auth) when the provider refuses the key", async () => {
      const wrongKey = contract.create(fake, "not-the-key");
      const result = await lookup(AbortSignal.timeout(5_000), wrongKey);
      expect(result).toMatchObject({ kind: "permanent", httpStatus: 401, cause: "auth" });
      expect(fake.requests).toHaveLength(1);
    });

    for (const [status, cause] of contract.permanent) {
      it(`answers permanent (${cause}) on ${status}`, async () => {
        fake.setBehaviour(EMAIL, { kind: "error", status });
        const result = await lookup();
        expect(result).toMatchObject({
          kind: "permanent",
          provider: contract.provider,
          httpStatus: status,
          cause,
        });
        if (result.kind === "permanent")
          expect(result.error).toMatch(new RegExp(`^HTTP ${status}: \\S`));
      });
    }

    it("answers transient with retryAfterMs on 429 + Retry-After seconds", async () => {
      fake.setBehaviour(EMAIL, { kind: "rate_limited", retryAfter: "7" });
      const result = await lookup();
      expect(result).toMatchObject({
        kind: "transient",
        httpStatus: 429,
        retryAfterMs: 7_000,
        cause: "rate_limited",
      });
    });

    it("reads a Retry-After HTTP-date", async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      fake.setBehaviour(EMAIL, { kind: "rate_limited", retryAfter: at });
      const result = await lookup();
      expect(result.kind).toBe("transient");
      const wait = result.kind === "transient" ? (result.retryAfterMs ?? 0) : 0;
      expect(wait).toBeGreaterThan(25_000);
      expect(wait).toBeLessThanOrEqual(30_000);
    });

    it("still waits a little after a 429 without any header", async () => {
      fake.setBehaviour(EMAIL, { kind: "rate_limited" });
      const result = await lookup();
      expect(result).toMatchObject({ kind: "transient", httpStatus: 429, retryAfterMs: 5_000 });
    });

    for (const status of contract.transient) {
      it(`answers transient (server_error) on ${status}`, async () => {
        fake.setBehaviour(EMAIL, { kind: "error", status });
        const result = await lookup();
        expect(result).toMatchObject({
          kind: "transient",
          httpStatus: status,
          cause: "server_error",
        });
        expect(result).not.toHaveProperty("retryAfterMs");
      });
    }

    it("honours Retry-After on a 503", async () => {
      fake.setBehaviour(EMAIL, { kind: "error", status: 503, retryAfter: "2" });
      const result = await lookup();
      expect(result).toMatchObject({ kind: "transient", httpStatus: 503, retryAfterMs: 2_000 });
    });

    it("answers transient (timeout) when the provider does not answer in time", async () => {
      fake.setBehaviour(EMAIL, { kind: "hang" });
      const started = Date.now();
      const result = await lookup(AbortSignal.timeout(200));
      expect(result).toMatchObject({ kind: "transient", httpStatus: null, cause: "timeout" });
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it("answers transient (aborted) when the caller aborts", async () => {
      fake.setBehaviour(EMAIL, { kind: "match", delay: 2_000 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error("shutting down")), 50);
      const result = await lookup(controller.signal);
      expect(result).toMatchObject({ kind: "transient", httpStatus: null, cause: "aborted" });
    });

    it("answers permanent (malformed_response) on a 200 that is not JSON, keeping the text", async () => {
      fake.setBehaviour(EMAIL, { kind: "malformed" });
      const result = await lookup();
      expect(result).toMatchObject({
        kind: "permanent",
        httpStatus: 200,
        cause: "malformed_response",
      });
      expect(result.raw).toContain("502 Bad Gateway");
    });

    it("answers permanent (malformed_response) on a 200 JSON of the wrong shape", async () => {
      fake.setBehaviour(EMAIL, { kind: "raw", status: 200, body: [1, 2, 3] });
      const result = await lookup();
      expect(result).toMatchObject({
        kind: "permanent",
        httpStatus: 200,
        cause: "malformed_response",
      });
      if (result.kind === "permanent") expect(result.error).toMatch(/unexpected response shape/);
    });

    it("answers transient (network) when the provider cannot be reached", async () => {
      const gone = await contract.start();
      await gone.close();
      const result = await lookup(AbortSignal.timeout(5_000), contract.create(gone));
      expect(result).toMatchObject({ kind: "transient", httpStatus: null, cause: "network" });
      if (result.kind === "transient") expect(result.error).toMatch(/ECONNREFUSED/);
    });
  });
}
