import { describe, expect, it } from "vitest";
import { parseCookies, serializeCookie } from "./cookies.js";

describe("parseCookies", () => {
  it("reads name=value pairs, trims, decodes, keeps the first of a name", () => {
    const c = parseCookies(' a=1; b = two%20words ; a=3; broken; c="quoted"; d=%E0%A4%A');
    expect([...c.entries()]).toEqual([
      ["a", "1"],
      ["b", "two words"],
      ["c", "quoted"],
    ]);
  });

  it("is empty for a missing header", () => {
    expect(parseCookies(undefined).size).toBe(0);
  });
});

describe("serializeCookie", () => {
  it("writes the security attributes", () => {
    expect(serializeCookie("s", "a b", { secure: true, maxAgeSeconds: 60 })).toBe(
      "s=a%20b; Path=/; Max-Age=60; HttpOnly; SameSite=Lax; Secure",
    );
  });

  it("expires a cookie with Max-Age=0 and a past Expires", () => {
    expect(serializeCookie("s", "", { secure: false, maxAgeSeconds: 0, path: "/x" })).toBe(
      "s=; Path=/x; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax",
    );
  });

  it("refuses a name that would break the header", () => {
    expect(() => serializeCookie("a;b", "v", { secure: false })).toThrow(RangeError);
  });
});
