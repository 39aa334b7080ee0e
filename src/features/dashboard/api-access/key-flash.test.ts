import { describe, expect, it } from "vitest";
import { newSecret } from "../session/session-token.js";
import { openKey, sealKey } from "./key-flash.js";

describe("the sealed new-key flash", () => {
  const session = newSecret();
  const key = { keyId: "0190f0c4-0000-7000-8000-000000000001", apiKey: "sk_live_example" };
  const now = 1_750_000_000_000;

  it("opens for the session it was sealed for, and hides the key", () => {
    const sealed = sealKey(session, key, now);
    expect(sealed).not.toContain("sk_live");
    expect(Buffer.from(sealed, "base64url").toString("latin1")).not.toContain("sk_live");
    expect(openKey(session, sealed, now + 1000)).toEqual(key);
  });

  it("does not open for another session, once tampered with, or after 5 minutes", () => {
    const sealed = sealKey(session, key, now);
    expect(openKey(newSecret(), sealed, now)).toBeNull();
    const bytes = Buffer.from(sealed, "base64url");
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1;
    expect(openKey(session, bytes.toString("base64url"), now)).toBeNull();
    expect(openKey(session, "garbage", now)).toBeNull();
    expect(openKey(session, sealed, now + 5 * 60_000)).toBeNull();
  });
});
