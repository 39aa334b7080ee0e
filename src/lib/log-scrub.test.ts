import { describe, expect, it } from "vitest";
import { scrubLogLine } from "./log-scrub.js";

describe("scrubLogLine", () => {
  it("replaces e-mail addresses and 43-character tokens, wherever they are in the line", () => {
    const token = "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde";
    const line = `{"msg":"550 <Jane.Doe+vip@mail.example.co.uk> rejected","url":"/x?token=${token}"}`;
    const out = scrubLogLine(line);
    expect(out).not.toContain("Jane.Doe");
    expect(out).not.toContain(token);
    expect(out).toBe('{"msg":"550 <[e-mail]> rejected","url":"/x?token=[token]"}');
  });

  it("recognises a percent-encoded address too", () => {
    expect(scrubLogLine('{"path":"/x/jane.doe%40mail.example.com"}')).toBe(
      '{"path":"/x/[e-mail]"}',
    );
  });

  it("leaves ids, hashes and ordinary words alone", () => {
    const line = `{"requestId":"0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","hash":"${"ab".repeat(32)}","msg":"request"}`;
    expect(scrubLogLine(line)).toBe(line);
    expect(scrubLogLine(line)).toBe(line);
  });
});
