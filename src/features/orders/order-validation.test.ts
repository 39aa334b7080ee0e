/**
 * Validation of POST /api/v1/orders: every 400 of the contract (exact "Missing
 * required fields" message, a message naming the field otherwise), and nothing is written for
 * a refused request.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { request, storeRows, submitJson, validBody } from "../../../test/support/orders.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

const missing = (fields: string) => ({
  error: "Bad Request",
  message: `Missing required fields: ${fields}`,
});

/** [what, body, the missing fields in the contract's order] */
const MISSING_CASES: Array<[string, Record<string, unknown>, string]> = [
  ["all absent", {}, "email, firstName, lastName"],
  ["all null", { email: null, firstName: null, lastName: null }, "email, firstName, lastName"],
  ["all empty", { email: "", firstName: "", lastName: "" }, "email, firstName, lastName"],
  ["email absent", { firstName: "Jane", lastName: "Doe" }, "email"],
  [
    "names in body order reversed",
    { lastName: null, email: "a@example.com" },
    "firstName, lastName",
  ],
  ["email and lastName", { lastName: "", firstName: "Jane" }, "email, lastName"],
  ["lastName only", { email: "a@example.com", firstName: "Jane", lastName: null }, "lastName"],
  [
    "only unknown fields",
    { name: "Jane Doe", mail: "a@example.com" },
    "email, firstName, lastName",
  ],
];

const long = (n: number) => "a".repeat(n);

/** [what, body overrides, a pattern the message must match (it names the field)] */
const INVALID_CASES: Array<[string, Record<string, unknown>, RegExp]> = [
  ["e-mail without @", { email: "jane.example.com" }, /^email /],
  ["e-mail with a space", { email: "jane doe@example.com" }, /^email /],
  ["e-mail domain without a dot", { email: "jane@localhost" }, /^email /],
  ["e-mail domain label starting with -", { email: "jane@-example.com" }, /^email /],
  [
    "e-mail longer than 254",
    { email: `${long(64)}@${long(63)}.${long(63)}.${long(60)}.com` },
    /^email /,
  ],
  ["blank e-mail", { email: "   " }, /^email /],
  ["disposable e-mail", { email: "x@mailinator.com" }, /^email .*disposable/],
  ["disposable e-mail, other case", { email: "X@MAILINATOR.COM" }, /^email .*disposable/],
  ["disposable e-mail on a subdomain", { email: "x@sub.mailinator.com" }, /^email .*disposable/],
  ["blank firstName", { firstName: "   " }, /^firstName /],
  ["blank lastName", { lastName: "\t" }, /^lastName /],
  ["e-mail not a string", { email: 42 }, /^email /],
  ["firstName not a string", { firstName: ["Jane"] }, /^firstName /],
  ["lastName not a string", { lastName: { v: "Doe" } }, /^lastName /],
  ["phone not a string", { phone: 5551234 }, /^phone /],
  ["address a string", { address: "1 Main St" }, /^address /],
  ["address an array", { address: ["Paris"] }, /^address /],
  ["address.zipcode a number", { address: { zipcode: 10001 } }, /^address\.zipcode /],
  ["order a string", { order: "1001" }, /^order /],
  ["order.id a number", { order: { id: 1001 } }, /^order\.id /],
  ["order.total a number", { order: { id: "1", total: 12.5 } }, /^order\.total /],
  ["order.total negative", { order: { id: "1", total: "-1.00" } }, /^order\.total /],
  ["order.total exponent", { order: { id: "1", total: "1e3" } }, /^order\.total /],
  ["order.total with comma", { order: { id: "1", total: "1,000.00" } }, /^order\.total /],
  ["order.total not a number", { order: { id: "1", total: "abc" } }, /^order\.total /],
  ["order.total leading dot", { order: { id: "1", total: ".5" } }, /^order\.total /],
  ["order.currency unknown", { order: { id: "1", currency: "XYZ" } }, /^order\.currency /],
  ["order.currency too long", { order: { id: "1", currency: "USDX" } }, /^order\.currency /],
  ["order.currency a number", { order: { id: "1", currency: 840 } }, /^order\.currency /],
];

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`order validation on ${engine.name}`, () => {
    let app: TestApp;
    let account: TestAccount;
    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount();
    });
    afterAll(async () => {
      // Not one refused request may have written anything.
      expect(await storeRows(app.deps.db, account.storeId)).toMatchObject({
        customers: 0,
        orders: 0,
        charges: 0,
      });
      await app?.close();
    });

    it.each(MISSING_CASES)("lists missing fields in order: %s", async (_what, body, fields) => {
      const res = await submitJson(app, account.apiKey, body);
      expect(res).toEqual({ status: 400, body: missing(fields) });
    });

    it.each(INVALID_CASES)("refuses %s, naming the field", async (_what, overrides, pattern) => {
      const res = await submitJson(app, account.apiKey, validBody(overrides));
      expect(res.status).toBe(400);
      expect(Object.keys(res.body).sort()).toEqual(["error", "message"]);
      expect(res.body.error).toBe("Bad Request");
      expect(res.body.message).toMatch(pattern);
    });

    const raw = (body: string, contentType = "application/json") =>
      request(app, {
        headers: { "content-type": contentType, authorization: `Bearer ${account.apiKey}` },
        body,
      });

    it("refuses malformed JSON and bodies that are not objects", async () => {
      for (const body of ["{oops", '{"email": "a@example.com",}', ""]) {
        const res = await raw(body);
        expect(res.status, body).toBe(400);
        const json = (await res.json()) as Record<string, unknown>;
        expect(json.error).toBe("Bad Request");
        expect(json.message).toMatch(/JSON/);
      }
      for (const body of ["[]", '"a@example.com"', "42", "null", "true"]) {
        const res = await raw(body);
        expect(res.status, body).toBe(400);
        expect(await res.json()).toEqual({
          error: "Bad Request",
          message: "Request body must be a JSON object",
        });
      }
    });

    it("refuses a non-JSON content type with 415", async () => {
      const body = JSON.stringify(validBody());
      for (const type of ["text/plain", "application/x-www-form-urlencoded", "text/html"]) {
        const res = await raw(body, type);
        expect(res.status, type).toBe(415);
        expect(await res.json()).toEqual({
          error: "Unsupported Media Type",
          message: "Content-Type must be application/json",
        });
      }
    });

    it("refuses a body over 1 MiB with 413 and accepts one of exactly 1 MiB", async () => {
      const base = JSON.stringify({ ...validBody(), padding: "" });
      const exact = base.replace(
        '"padding":""',
        `"padding":"${"x".repeat(1024 * 1024 - base.length)}"`,
      );
      expect(Buffer.byteLength(exact)).toBe(1024 * 1024);
      const tooBig = exact.replace('"padding":"', '"padding":"x');

      const big = await raw(tooBig);
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({
        error: "Payload Too Large",
        message: "Request body must be at most 1048576 bytes (1 MiB)",
      });
      const ok = await raw(exact.replace(/"email":"[^"]+"/, '"email":"  "'));
      expect(ok.status).toBe(400);
      expect(((await ok.json()) as { message: string }).message).toMatch(/^email /);
    });

    it("answers 404 for an unknown path, 400 for a malformed URL, 405 with Allow: POST for another method", async () => {
      const auth = { authorization: `Bearer ${account.apiKey}` };
      for (const path of ["/api/v1/nope", "/api/v1/order", "/api/v2/orders", "/api/v1/orders/1"]) {
        const res = await request(app, { method: "GET", path, headers: auth });
        expect(res.status, path).toBe(404);
        const json = (await res.json()) as Record<string, unknown>;
        expect(json.error).toBe("Not Found");
        expect(typeof json.message).toBe("string");
      }
      for (const path of ["/api/v1/orders%zz", "/api/v1/%E0%A4%A"]) {
        const res = await request(app, { path, headers: auth });
        expect(res.status, path).toBe(400);
        expect(await res.json()).toEqual({
          error: "Bad Request",
          message: "The request URL is not valid",
        });
      }
      for (const method of ["GET", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const res = await request(app, { method, headers: auth });
        expect(res.status, method).toBe(405);
        expect(res.headers.get("allow")).toBe("POST");
        const json = (await res.json()) as Record<string, unknown>;
        expect(json).toEqual({ error: "Method Not Allowed", message: "Use POST /api/v1/orders" });
      }
    });
  });
}
