/** The command a suggestion names is one the person can type where they are. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { invokedAs } from "./invoked-as.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

describe("invokedAs", () => {
  it("names `velvet` when it ran from the PATH", () => {
    expect(invokedAs("/usr/local/bin/velvet", "/home/me")).toBe("velvet");
  });

  it("names the checkout's entry from where the person stands, however it ran", () => {
    for (const script of ["bin/velvet.js", "src/cli/index.ts", "dist/cli/index.js"]) {
      expect(invokedAs(path.join(ROOT, script), ROOT)).toBe("node bin/velvet.js");
    }
    // From outside the checkout's root: the whole path.
    expect(invokedAs(path.join(ROOT, "bin/velvet.js"), path.join(ROOT, "docs"))).toBe(
      `node ${path.join(ROOT, "bin", "velvet.js")}`,
    );
    expect(invokedAs(path.join(ROOT, "bin/velvet.js"), "/")).toBe(
      `node ${path.relative("/", path.join(ROOT, "bin/velvet.js"))}`,
    );
  });
});
