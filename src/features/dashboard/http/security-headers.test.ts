/**
 * The strict headers every dashboard page carries (respond.ts), including the 404 page served
 * outside the dashboard's routes. Headers do not depend on the engine: SQLite only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../../test/support/databases.js";
import { startTestApp, type TestApp } from "../../../../test/support/test-app.js";

const sqlite = ENGINES.find((e) => e.name === "sqlite");

/** The policy's directives, whatever the spacing around the separators. */
function directives(policy: string | null): string[] {
  return (policy ?? "")
    .split(";")
    .map((d) => d.trim())
    .filter((d) => d !== "");
}

describe.skipIf(sqlite === undefined)("dashboard security headers", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp(sqlite as NonNullable<typeof sqlite>);
  });
  afterAll(() => app?.close());

  it.each([
    ["a page", "/login", 200],
    ["the 404 page", "/nowhere", 404],
  ])(
    "%s: CSP, no framing, same-origin referrer, nosniff, no-store",
    async (_what, path, status) => {
      const res = await fetch(`${app.url}${path}`);
      await res.arrayBuffer();
      expect(res.status).toBe(status);
      expect(directives(res.headers.get("content-security-policy"))).toEqual([
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ]);
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("cache-control")).toBe("no-store");
    },
  );

  it("API answers carry nosniff but no page policy", async () => {
    const res = await fetch(`${app.url}/api/v1/nope`);
    await res.arrayBuffer();
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("content-security-policy")).toBeNull();
  });
});
