import { describe, expect, it } from "vitest";
import { highestSeniority, seniorityFromPdlLevels, seniorityFromTitle } from "./seniority.js";

describe("seniorityFromTitle", () => {
  it.each([
    ["Chief Executive Officer", "c_level"],
    ["CEO", "c_level"],
    ["Co-Founder & CTO", "c_level"],
    ["President", "c_level"],
    ["Chief of Staff", "c_level"],
    ["Founder", "founder"],
    ["Co-founder", "founder"],
    ["Cofounder and Head of Product", "founder"],
    ["Owner", "owner"],
    ["Co-Owner, Bakery", "owner"],
    ["Managing Partner", "partner"],
    ["Partner", "partner"],
    ["Vice President of Sales", "vp"],
    ["Senior Vice-President, Finance", "vp"],
    ["SVP Engineering", "vp"],
    ["VP Marketing", "vp"],
    ["Director of Operations", "director"],
    ["Head of Growth", "director"],
    ["Partner Manager", "manager"],
    ["Product Manager", "manager"],
    ["Senior Software Engineer", "senior"],
    ["Principal Engineer", "senior"],
    ["Marketing Intern", "entry"],
    ["Junior Designer", "entry"],
  ])("%s → %s", (title, expected) => {
    expect(seniorityFromTitle(title)).toBe(expected);
  });

  it.each([["Software Engineer"], ["Partnerships Lead"], ["Teacher"], [""], [undefined]])(
    "%s → none",
    (title) => {
      expect(seniorityFromTitle(title)).toBeUndefined();
    },
  );
});

describe("seniorityFromPdlLevels", () => {
  it("maps PDL's canonical levels and keeps the highest", () => {
    expect(seniorityFromPdlLevels(["cxo"])).toBe("c_level");
    expect(seniorityFromPdlLevels(["manager", "vp"])).toBe("vp");
    expect(seniorityFromPdlLevels(["owner", "partner"])).toBe("owner");
    expect(seniorityFromPdlLevels(["training"])).toBe("entry");
    expect(seniorityFromPdlLevels(["unknown-level"])).toBeUndefined();
    expect(seniorityFromPdlLevels([])).toBeUndefined();
  });
});

describe("highestSeniority", () => {
  it("orders c_level above founder above owner above vp", () => {
    expect(highestSeniority(["vp", "founder", undefined])).toBe("founder");
    expect(highestSeniority(["founder", "c_level"])).toBe("c_level");
    expect(highestSeniority(["director", "owner"])).toBe("owner");
    expect(highestSeniority([undefined])).toBeUndefined();
  });
});
