/**
 * openapi/openapi.yaml against the running app: every status the endpoint documents is
 * produced for real, and each real body validates against the schema documented for its status
 * (responses forbid extra properties, so a field gained or lost fails here). The document's
 * own examples must validate too, and must carry the contract's exact messages.
 */
import fs from "node:fs";
import { STATUS_CODES } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { updateAccount } from "../src/features/accounts/update-account.js";
import { ENGINES } from "./support/databases.js";
import {
  FAILED,
  injectDiskFull,
  injectOrderInsertFault,
  removeDiskFull,
  removeOrderInsertFault,
  request,
  UNAUTHORIZED,
  uniqueOrderId,
  validBody,
} from "./support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "./support/test-app.js";

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../openapi/openapi.yaml");
const DOC_ID = "https://velvet.invalid/openapi.yaml";
const PATH = "/api/v1/orders";

interface MediaType {
  schema: { $ref: string };
  examples?: Record<string, { value: unknown }>;
}
interface Operation {
  requestBody: { content: Record<string, MediaType> };
  responses: Record<string, { content: Record<string, MediaType>; headers?: object }>;
}
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, { post: Operation }>;
  components: { securitySchemes: Record<string, Record<string, string>> };
}

const doc = parse(fs.readFileSync(FILE, "utf8")) as OpenApiDoc;
const operation = doc.paths[PATH]?.post as Operation;

// ajv-formats is CommonJS: under NodeNext its plugin is the module's `default` property.
const addFormats = addFormatsModule.default;
const ajv = new Ajv2020({ strict: true, allErrors: true });
addFormats(ajv);
// The document's top-level OpenAPI fields are not JSON Schema keywords: declare them as such.
ajv.addVocabulary(["openapi", "info", "servers", "security", "paths", "components"]);
ajv.addKeyword({ keyword: "jsonSchemaDialect" });
ajv.addSchema(doc as object, DOC_ID);

function validatorFor(media: MediaType): ValidateFunction {
  return ajv.compile({ $ref: `${DOC_ID}${media.schema.$ref}` });
}

const json = (status: string): MediaType => {
  const media = operation.responses[status]?.content["application/json"];
  if (!media) throw new Error(`no application/json response documented for ${status}`);
  return media;
};
const responseValidators = new Map(
  Object.keys(operation.responses).map((status) => [status, validatorFor(json(status))]),
);

function expectDocumented(status: number, body: unknown): void {
  const validate = responseValidators.get(String(status));
  if (!validate) throw new Error(`status ${status} is not documented for POST ${PATH}`);
  const ok = validate(body);
  expect(ok, `${status} ${JSON.stringify(body)}: ${ajv.errorsText(validate.errors)}`).toBe(true);
}

/** The documented spelling of a header (`ratelimit-policy` → `RateLimit-Policy`). */
function headerName(lower: string): string {
  const known = ["Retry-After", "RateLimit-Policy", "RateLimit", "X-Request-Id"];
  return known.find((k) => k.toLowerCase() === lower) ?? lower;
}

describe("openapi/openapi.yaml", () => {
  it("is OpenAPI 3.1 with both key schemes and exactly the endpoint's statuses", () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
    expect(Object.keys(doc.paths)).toEqual([PATH]);
    expect(Object.keys(doc.paths[PATH] ?? {})).toEqual(["post"]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: "http", scheme: "bearer" },
      apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
    });
    expect(Object.keys(operation.responses).sort()).toEqual(
      ["200", "400", "401", "405", "409", "413", "415", "429", "500", "503"].sort(),
    );
  });

  it("has examples that validate, with the status's short name and the contract's messages", () => {
    for (const [status, response] of Object.entries(operation.responses)) {
      const media = json(status);
      const examples = Object.values(media.examples ?? {});
      expect(examples.length, status).toBeGreaterThan(0);
      for (const { value } of examples) {
        expectDocumented(Number(status), value);
        if (status !== "200")
          expect((value as { error: string }).error).toBe(STATUS_CODES[Number(status)]);
      }
      expect(response).toBeDefined();
    }
    const messages = (status: string) =>
      Object.values(json(status).examples ?? {}).map(
        (e) => (e.value as { message: string }).message,
      );
    expect(messages("401")).toEqual([UNAUTHORIZED.message]);
    expect(messages("500")).toEqual([FAILED.message]);
    expect(messages("400")).toContain("Missing required fields: email, firstName, lastName");

    const requestMedia = operation.requestBody.content["application/json"] as MediaType;
    const validateRequest = validatorFor(requestMedia);
    for (const { value } of Object.values(requestMedia.examples ?? {})) {
      expect(validateRequest(value), ajv.errorsText(validateRequest.errors)).toBe(true);
    }
    expect(validateRequest({ email: "jane@example.com", firstName: "Jane" })).toBe(false);
  });

  it("refuses a response that gains or loses a field", () => {
    const ok = {
      success: true,
      customerId: "0195a0b0-1c2d-7e3f-8a4b-5c6d7e8f9a0b",
      enrichmentStatus: "queued",
    };
    expect(responseValidators.get("200")?.(ok)).toBe(true);
    expect(responseValidators.get("200")?.({ ...ok, extra: 1 })).toBe(false);
    expect(responseValidators.get("200")?.({ ...ok, orderId: null })).toBe(false);
    const { enrichmentStatus: _dropped, ...lost } = ok;
    expect(responseValidators.get("200")?.(lost)).toBe(false);
    expect(responseValidators.get("401")?.({ ...UNAUTHORIZED, code: "x" })).toBe(false);
    expect(responseValidators.get("401")?.({ error: "Unauthorized" })).toBe(false);
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`real responses match openapi.yaml on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(() => app?.close());

    const seen = new Set<number>();
    async function check(res: Response): Promise<void> {
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      seen.add(res.status);
      expectDocumented(res.status, await res.json());
    }
    const withKey = (headers: Record<string, string> = {}) => ({
      authorization: `Bearer ${account.apiKey}`,
      "content-type": "application/json",
      ...headers,
    });

    it("200 with and without order data", async () => {
      const withOrder = await app.submit(
        account.apiKey,
        validBody({ order: { id: uniqueOrderId(), total: "1.00" } }),
      );
      expect(withOrder.status).toBe(200);
      await check(withOrder);
      const without = await app.submit(account.apiKey, validBody());
      expect(without.status).toBe(200);
      await check(without);
    });

    it("every documented error status", async () => {
      const orderId = uniqueOrderId();
      await app.submit(account.apiKey, validBody({ order: { id: orderId } }));
      const responses: Array<[number, Promise<Response>]> = [
        [400, app.submit(account.apiKey, {})],
        [400, app.submit(account.apiKey, validBody({ email: "x@mailinator.com" }))],
        [400, request(app, { headers: withKey(), body: "{" })],
        [401, app.submit(null, validBody())],
        [405, request(app, { method: "GET", headers: withKey() })],
        [409, app.submit(account.apiKey, validBody({ order: { id: orderId } }))],
        [
          413,
          request(app, {
            headers: withKey(),
            body: JSON.stringify({ pad: "x".repeat(1024 * 1024) }),
          }),
        ],
        [415, request(app, { headers: withKey({ "content-type": "text/plain" }), body: "hi" })],
      ];
      for (const [status, pending] of responses) {
        const res = await pending;
        expect(res.status).toBe(status);
        await check(res);
      }
      await injectOrderInsertFault(app.deps.db);
      try {
        const res = await app.submit(account.apiKey, validBody({ order: { id: uniqueOrderId() } }));
        expect(res.status).toBe(500);
        await check(res);
      } finally {
        await removeOrderInsertFault(app.deps.db);
      }
      await injectDiskFull(app.deps.db);
      try {
        let res = await app.submit(account.apiKey, validBody({ order: { id: uniqueOrderId() } }));
        for (let i = 0; i < 200 && res.status === 200; i++)
          res = await app.submit(account.apiKey, validBody({ order: { id: uniqueOrderId() } }));
        expect(res.status).toBe(503);
        expect(res.headers.get("retry-after")).toBe("5");
        await check(res);
      } finally {
        await removeDiskFull(app.deps.db);
      }
    });

    it("429 with Retry-After and the RateLimit headers, which 200s carry too", async () => {
      const limited = await app.createAccount();
      await updateAccount(app.deps.db.kysely, limited.accountId, { apiRateLimitPerMinute: 1 });
      const first = await app.submit(limited.apiKey, validBody());
      expect(first.status).toBe(200);
      for (const name of ["ratelimit-policy", "ratelimit", "x-request-id"]) {
        expect(operation.responses["200"]?.headers, name).toHaveProperty(headerName(name));
        expect(first.headers.get(name), name).not.toBeNull();
      }
      const refused = await app.submit(limited.apiKey, validBody());
      expect(refused.status).toBe(429);
      for (const name of ["retry-after", "ratelimit-policy", "ratelimit", "x-request-id"]) {
        expect(operation.responses["429"]?.headers, name).toHaveProperty(headerName(name));
        expect(refused.headers.get(name), name).not.toBeNull();
      }
      await check(refused);
    });

    afterAll(() => {
      // Every documented status was produced for real by the tests above.
      expect([...seen].map(String).sort()).toEqual(Object.keys(operation.responses).sort());
    });
  });
}
