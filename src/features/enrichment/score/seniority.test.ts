import { describe, expect, it } from "vitest";
import { inferSeniority, readSeniority } from "./seniority.js";

describe("inferSeniority", () => {
  it.each([
    ["Founder", "founder"],
    ["Co-founder & CEO", "founder"],
    ["Cofounder", "founder"],
    ["CEO", "c_level"],
    ["Chief Financial Officer", "c_level"],
    ["CTO, Acme", "c_level"],
    ["President", "c_level"],
    ["Vice President of Sales", "vp"],
    ["SVP Engineering", "vp"],
    ["VP, Marketing", "vp"],
    ["Owner", "owner"],
    ["Store owner and baker", "owner"],
    ["Managing Partner", "partner"],
    ["Partner", "partner"],
    ["Partner, Smith & Co LLP", "partner"],
    ["Partner at Sequoia", "partner"],
    ["Director of Product", "director"],
    ["Head of Design", "director"],
    ["Partner Manager", null],
    ["Software Engineer", null],
    ["Barista", null],
    ["Directory clerk", null],
  ])("%s → %s", (title, expected) => {
    expect(inferSeniority(title)).toBe(expected);
  });
});

describe("readSeniority", () => {
  it("prefers the provider's level over the title", () => {
    expect(readSeniority({ title: "Founder", seniority: "manager" })).toEqual({
      seniority: "manager",
      fromTitle: false,
    });
  });
  it("falls back to the title, and to nothing", () => {
    expect(readSeniority({ title: "CEO" })).toEqual({ seniority: "c_level", fromTitle: true });
    expect(readSeniority({ title: "Engineer" })).toBeNull();
    expect(readSeniority({})).toBeNull();
  });
});
