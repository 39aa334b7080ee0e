import { describe, expect, it } from "vitest";
import { classifyEmailDomain } from "./email-domain.js";

describe("classifyEmailDomain", () => {
  it.each([
    ["jane@gmail.com", "gmail.com", "free_mail"],
    ["JANE@Outlook.COM", "outlook.com", "free_mail"],
    ["jane@yahoo.co.uk", "yahoo.co.uk", "free_mail"],
    ["jane@web.de", "web.de", "free_mail"],
    ["jane@acme-industries.com", "acme-industries.com", "corporate"],
    ["jane@mail.acme.co.uk", "acme.co.uk", "corporate"],
    ["jane@cs.stanford.edu", "stanford.edu", "corporate"],
  ])("%s → %s (%s)", (email, domain, kind) => {
    expect(classifyEmailDomain(email)).toEqual({ domain, kind });
  });
});
