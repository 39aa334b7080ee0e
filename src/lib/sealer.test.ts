import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createSealer, SealError } from "./sealer.js";

const sealer = createSealer(z.object({ token: z.string().min(1) }));
const key = randomBytes(32);

describe("sealing a secret at rest", () => {
  it("opens what it sealed, for the same row and key only", () => {
    const sealed = sealer.seal(key, "row-1", { token: "shpat_abcd" });
    expect(sealed).toMatch(/^v1:/);
    expect(sealed).not.toContain("shpat_abcd");
    expect(sealer.open(key, "row-1", sealed)).toEqual({ token: "shpat_abcd" });
    expect(() => sealer.open(key, "row-2", sealed)).toThrow(SealError);
    expect(() => sealer.open(randomBytes(32), "row-1", sealed)).toThrow(SealError);
  });

  it("refuses a value outside its schema, sealing and opening", () => {
    expect(() => sealer.seal(key, "row-1", { token: "" })).toThrow();
    const other = createSealer(z.object({ apiKey: z.string() })).seal(key, "row-1", {
      apiKey: "x",
    });
    expect(() => sealer.open(key, "row-1", other)).toThrow(SealError);
  });
});
