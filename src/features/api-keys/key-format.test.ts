import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  apiKeyFromHeaders,
  crc32,
  generateApiKey,
  hashApiKey,
  isWellFormedApiKey,
  KEY_PREFIX,
  lastFour,
} from "./key-format.js";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

describe("API key format", () => {
  it("is sk_live_ and 38 base62 characters, different every time", () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^sk_live_[0-9A-Za-z]{38}$/);
      expect(key.startsWith(KEY_PREFIX)).toBe(true);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it("rejects every one-character change, at every position", () => {
    const key = generateApiKey();
    for (let i = KEY_PREFIX.length; i < key.length; i++) {
      for (const c of [
        BASE62[(BASE62.indexOf(key[i] as string) + 1) % 62],
        BASE62[(BASE62.indexOf(key[i] as string) + 31) % 62],
      ]) {
        const changed = key.slice(0, i) + c + key.slice(i + 1);
        expect(isWellFormedApiKey(changed), `position ${i}`).toBe(false);
      }
    }
  });

  it("rejects wrong prefixes, lengths and characters", () => {
    const key = generateApiKey();
    for (const bad of [
      "",
      KEY_PREFIX,
      key.replace("sk_live_", "sk_test_"),
      key.replace("sk_live_", "SK_LIVE_"),
      key.slice(0, -1),
      `${key}0`,
      `${key.slice(0, 20)}-${key.slice(21)}`,
      ` ${key}`,
    ]) {
      expect(isWellFormedApiKey(bad), bad).toBe(false);
    }
  });

  it("hashes with SHA-256 (hex) and shows the last four characters", () => {
    const key = generateApiKey();
    expect(hashApiKey(key)).toBe(createHash("sha256").update(key).digest("hex"));
    expect(hashApiKey(key)).not.toContain(key.slice(KEY_PREFIX.length));
    expect(lastFour(key)).toBe(key.slice(-4));
  });
});

describe("apiKeyFromHeaders", () => {
  const key = "sk_live_abc";
  it("reads Bearer in any case, and x-api-key", () => {
    expect(apiKeyFromHeaders({ authorization: `Bearer ${key}` })).toBe(key);
    expect(apiKeyFromHeaders({ authorization: `bEaReR   ${key}  ` })).toBe(key);
    expect(apiKeyFromHeaders({ "x-api-key": ` ${key} ` })).toBe(key);
  });

  it("prefers Authorization and falls back to x-api-key when it is not a bearer token", () => {
    expect(apiKeyFromHeaders({ authorization: "Bearer one", "x-api-key": "two" })).toBe("one");
    expect(apiKeyFromHeaders({ authorization: "Basic one", "x-api-key": "two" })).toBe("two");
  });

  it("finds nothing in missing, empty or other-scheme headers", () => {
    expect(apiKeyFromHeaders({})).toBeNull();
    expect(apiKeyFromHeaders({ authorization: "Bearer" })).toBeNull();
    expect(apiKeyFromHeaders({ authorization: "Bearer a b" })).toBeNull();
    expect(apiKeyFromHeaders({ authorization: key })).toBeNull();
    expect(apiKeyFromHeaders({ "x-api-key": "  " })).toBeNull();
    expect(apiKeyFromHeaders({ "x-api-key": ["a", "b"] })).toBeNull();
  });
});

describe("crc32", () => {
  it("is the IEEE CRC-32 (check value of '123456789')", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
  });
});
