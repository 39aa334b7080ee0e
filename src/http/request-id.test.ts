/**
 * X-Request-Id: kept when acceptable, replaced when not, made up when absent, and returned on
 * every kind of response: the API's 200 and errors, 404s (JSON and HTML), dashboard pages,
 * health checks and a malformed URL.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sqliteEngine } from "../../test/support/databases.js";
import { validBody } from "../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../test/support/test-app.js";
import { isAcceptableRequestId } from "./request-id.js";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("request ids", () => {
  let app: TestApp;
  let account: TestAccount;
  beforeAll(async () => {
    app = await startTestApp(sqliteEngine);
    account = await app.createAccount();
  });
  afterAll(() => app?.close());

  it("accepts plain ids and refuses odd ones", () => {
    expect(isAcceptableRequestId("b7f3c1d2-0a4e-4f5b-9c6d-7e8f9a0b1c2d")).toBe(true);
    expect(isAcceptableRequestId("Root=1-67891233-abcdef012345678912345678")).toBe(true);
    expect(isAcceptableRequestId("")).toBe(false);
    expect(isAcceptableRequestId("a".repeat(129))).toBe(false);
    expect(isAcceptableRequestId("has space")).toBe(false);
    expect(isAcceptableRequestId("new\nline")).toBe(false);
    expect(isAcceptableRequestId('quote"d')).toBe(false);
  });

  it("returns the id the client sent on an accepted order", async () => {
    const res = await app.submit(account.apiKey, validBody(), {
      headers: { "x-request-id": "req-123.abc" },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBe("req-123.abc");
  });

  it("makes a new id when none or an unacceptable one is sent", async () => {
    const none = await app.submit(account.apiKey, validBody());
    expect(none.headers.get("x-request-id")).toMatch(UUID_RE);
    const odd = await app.submit(account.apiKey, validBody(), {
      headers: { "x-request-id": "x".repeat(200) },
    });
    expect(odd.headers.get("x-request-id")).toMatch(UUID_RE);
    expect(none.headers.get("x-request-id")).not.toBe(odd.headers.get("x-request-id"));
  });

  it("is on every kind of response", async () => {
    const responses = await Promise.all([
      app.submit(null, validBody()), // 401
      app.submit(account.apiKey, { email: "x" }), // 400
      fetch(`${app.url}/api/v1/orders`), // 405
      fetch(`${app.url}/api/v1/nope`), // JSON 404
      fetch(`${app.url}/no-such-page`), // HTML 404
      fetch(`${app.url}/login`), // a dashboard page
      fetch(`${app.url}/healthz`),
      fetch(`${app.url}/readyz`),
      fetch(`${app.url}/api/v1/%E0%A4%A`), // malformed URL
    ]);
    expect(responses.map((r) => r.status)).toEqual([401, 400, 405, 404, 404, 200, 200, 200, 400]);
    for (const res of responses) expect(res.headers.get("x-request-id")).toMatch(UUID_RE);
  });

  it("is carried by the enrichment job the request enqueued", async () => {
    const res = await app.submit(account.apiKey, validBody(), {
      headers: { "x-request-id": "trace-me-42" },
    });
    const { customerId } = (await res.json()) as { customerId: string };
    const job = await app.deps.db.kysely
      .selectFrom("jobs")
      .select("request_id")
      .where("job_key", "=", `enrich-customer:${customerId}`)
      .executeTakeFirstOrThrow();
    expect(job.request_id).toBe("trace-me-42");
  });
});
