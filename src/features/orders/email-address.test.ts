import { describe, expect, it } from "vitest";
import { checkEmail, isDisposableDomain, normalizeEmail } from "./email-address.js";

describe("checkEmail", () => {
  it.each([
    "jane@example.com",
    "Jane.Doe+vip@Example.CO.UK",
    "o'brien@example.ie",
    "a!#$%&'*+/=?^_`{|}~-@example.com",
    "x@a-b.example",
    "  jane@example.com  ",
  ])("accepts %s", (email) => {
    expect(checkEmail(email)).toBe("ok");
  });

  it.each([
    "",
    "jane",
    "jane@",
    "@example.com",
    "jane@@example.com",
    "jane doe@example.com",
    "jane@localhost",
    "jane@example..com",
    "jane@-example.com",
    "jane@example-.com",
    "jane@exa_mple.com",
    "jané@example.com",
    '"jane"@example.com',
    `jane@${"a".repeat(64)}.com`,
  ])("refuses %s as invalid", (email) => {
    expect(checkEmail(email)).toBe("invalid");
  });

  it("allows 254 characters and refuses 255", () => {
    const domain = `${"d".repeat(60)}.com`;
    const at254 = `${"l".repeat(254 - domain.length - 1)}@${domain}`;
    expect(at254).toHaveLength(254);
    expect(checkEmail(at254)).toBe("ok");
    expect(checkEmail(`l${at254}`)).toBe("invalid");
  });

  it.each([
    "x@mailinator.com",
    "x@MAILINATOR.COM",
    "x@sub.mailinator.com",
    "x@a.b.mailinator.com",
    "x@guerrillamail.com",
  ])("refuses %s as disposable", (email) => {
    expect(checkEmail(email)).toBe("disposable");
  });

  it("does not treat a domain merely containing a disposable name as disposable", () => {
    expect(checkEmail("x@mailinator.com.example.org")).toBe("ok");
    expect(checkEmail("x@mailinator.example.com")).toBe("ok");
    expect(isDisposableDomain("gmail.com")).toBe(false);
  });
});

describe("normalizeEmail", () => {
  it("trims and lower-cases, nothing more", () => {
    expect(normalizeEmail("  Jane.Doe+VIP@Example.COM\t")).toBe("jane.doe+vip@example.com");
  });
});
