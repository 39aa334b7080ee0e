import { describe, expect, it } from "vitest";
import { isUuid, newId } from "./ids.js";

describe("newId", () => {
  it("makes RFC 9562 version 7 UUIDs carrying the time", () => {
    const now = Date.UTC(2025, 2, 15, 12);
    const id = newId(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Number.parseInt(id.replace(/-/g, "").slice(0, 12), 16)).toBe(now);
    expect(isUuid(id)).toBe(true);
  });

  it("is unique within one millisecond and ordered across milliseconds", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => newId(1)));
    expect(ids.size).toBe(1000);
    expect(newId(1000) < newId(1001)).toBe(true);
  });

  it("isUuid refuses what is not a UUID", () => {
    expect(isUuid("not-a-uuid")).toBe(false);
    expect(isUuid("")).toBe(false);
    expect(isUuid(`${newId()}0`)).toBe(false);
  });
});
