import { describe, expect, it } from "vitest";
import { checkWebhookUrl, maskWebhookUrl } from "./webhook-url.js";

const strict = { allowPrivate: false };
const lax = { allowPrivate: true };
const SLACK = "https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx";

describe("checkWebhookUrl", () => {
  it("accepts an https URL and normalises it", () => {
    expect(checkWebhookUrl(` ${SLACK} `, strict)).toEqual({ ok: true, url: SLACK });
  });

  it("refuses what is not a URL, or has credentials", () => {
    expect(checkWebhookUrl("hooks.slack.com/services/x", strict).ok).toBe(false);
    expect(checkWebhookUrl("", strict).ok).toBe(false);
    expect(checkWebhookUrl("https://user:pw@hooks.slack.com/x", strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/user name or password/),
    });
    expect(checkWebhookUrl(`https://hooks.slack.com/${"a".repeat(2100)}`, strict).ok).toBe(false);
  });

  it("requires https unless private webhooks are allowed", () => {
    expect(checkWebhookUrl("http://hooks.slack.com/x", strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/must use https/),
    });
    expect(checkWebhookUrl("ftp://hooks.slack.com/x", lax).ok).toBe(false);
    expect(checkWebhookUrl("http://chat.internal:8065/hooks/x", lax)).toEqual({
      ok: true,
      url: "http://chat.internal:8065/hooks/x",
    });
  });

  // The WHATWG URL parser normalises every IPv4 notation before we look at the host.
  const literals: Array<[string, string]> = [
    ["https://127.0.0.1/x", "127.0.0.1"],
    ["https://2130706433/x", "127.0.0.1"], // decimal
    ["https://0x7f000001/x", "127.0.0.1"], // hex
    ["https://0177.0.0.1/x", "127.0.0.1"], // octal
    ["https://0x7f.1/x", "127.0.0.1"], // mixed, short form
    ["https://127.1/x", "127.0.0.1"],
    ["https://0/x", "0.0.0.0"],
    ["https://169.254.169.254/latest/meta-data", "169.254.169.254"],
    ["https://2852039166/x", "169.254.169.254"], // decimal metadata
    ["https://10.1.2.3/x", "10.1.2.3"],
    ["https://100.64.0.1/x", "100.64.0.1"],
    ["https://[::1]/x", "[::1]"],
    ["https://[::]/x", "[::]"],
    ["https://[::ffff:127.0.0.1]/x", "[::ffff:7f00:1]"],
    ["https://[::ffff:169.254.169.254]/x", "[::ffff:a9fe:a9fe]"],
    ["https://[::ffff:a9fe:a9fe]/x", "[::ffff:a9fe:a9fe]"],
    ["https://[fd00:ec2::254]/x", "[fd00:ec2::254]"],
    ["https://[fe80::1]/x", "[fe80::1]"],
  ];
  it.each(literals)("refuses %s (host %s)", (url, host) => {
    const result = checkWebhookUrl(url, strict);
    expect(result).toEqual({
      ok: false,
      reason: `the webhook URL points to a non-public address (${host})`,
    });
    expect(checkWebhookUrl(url, lax).ok).toBe(true);
  });

  it("refuses localhost names unless private webhooks are allowed", () => {
    expect(checkWebhookUrl("https://localhost:8443/x", strict).ok).toBe(false);
    expect(checkWebhookUrl("https://chat.localhost/x", strict).ok).toBe(false);
    expect(checkWebhookUrl("https://LOCALHOST./x", strict).ok).toBe(false);
    expect(checkWebhookUrl("http://localhost:8065/x", lax).ok).toBe(true);
  });

  it("accepts a public IP literal", () => {
    expect(checkWebhookUrl("https://8.8.8.8/x", strict).ok).toBe(true);
  });
});

describe("maskWebhookUrl", () => {
  it("keeps scheme, host and the last four characters only", () => {
    expect(maskWebhookUrl(SLACK)).toBe("https://hooks.slack.com/…uvwx");
    expect(maskWebhookUrl("http://127.0.0.1:8065/hooks/abc123secretXYZ9")).toBe(
      "http://127.0.0.1:8065/…XYZ9",
    );
  });

  it("shows no tail of a short path, and nothing of an invalid URL", () => {
    expect(maskWebhookUrl("https://chat.example.com/x")).toBe("https://chat.example.com/…");
    expect(maskWebhookUrl("not a url with secret abcd")).toBe("[invalid URL]");
  });

  it("refuses a port other than 443 unless private addresses are allowed", () => {
    expect(checkWebhookUrl("https://hooks.slack.com:8443/services/x", strict)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/standard port/),
    });
    expect(checkWebhookUrl("https://hooks.slack.com:443/services/x", strict).ok).toBe(true);
    expect(checkWebhookUrl("https://chat.example:8443/hooks/x", lax).ok).toBe(true);
  });
});
