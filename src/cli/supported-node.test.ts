/**
 * `bin/velvet.js` refuses a Node.js older than package.json's `engines.node` with one line, before
 * it loads anything that would crash on it (the native SQLite module, the HTTP client). The
 * running Node's version is replaced before the program starts, as an older Node would report it.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const { engines } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  engines: { node: string };
};

function velvetOn(version: string) {
  const pretend = `data:text/javascript,Object.defineProperty(process.versions,"node",{value:"${version}"})`;
  return spawnSync(process.execPath, ["--import", pretend, "bin/velvet.js", "serve"], {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: ":memory:", PORT: "0" },
    timeout: 20_000,
  });
}

describe("the Node.js version", () => {
  it("engines.node admits 22 from 22.19 and 24, and not 20", () => {
    expect(engines.node).toBe(">=22.19.0");
  });

  for (const version of ["20.20.2", "22.18.0", "18.20.8"]) {
    it(`refuses Node.js ${version} with one line and exit 1`, () => {
      const run = velvetOn(version);
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `velvet: Node.js ${version} is not supported; Velvet needs Node.js 22.19 or later (22 or 24 LTS): see "Node.js" in the README\n`,
      );
    });
  }

  it("lets a supported Node.js through", () => {
    const run = spawnSync(process.execPath, ["bin/velvet.js", "--help"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(run.stderr).not.toContain("is not supported");
    // Built, the help; not built (a test run from source), the way to build it.
    if (fs.existsSync(path.join(ROOT, "dist/cli/index.js"))) {
      expect(run.status).toBe(0);
      expect(run.stdout).toContain("Usage: velvet");
    } else {
      expect(run.stderr).toContain("not built yet");
    }
  });
});
