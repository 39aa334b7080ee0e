import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  anchorsOf,
  brokenLinks,
  brokenLinksIn,
  markdownFiles,
  prose,
  root,
} from "./support/markdown-links.js";

describe("links between README.md and docs/", () => {
  it("finds every file and heading a link names", () => {
    const files = markdownFiles();
    expect(files.length).toBeGreaterThan(5);
    expect(brokenLinks(files)).toEqual([]);
  });

  it("reports a missing file, a missing heading and ignores links inside code", () => {
    const headings = anchorsOf("# The `velvet` command\n## People's data\n## People's data\n");
    expect([...headings]).toEqual(["the-velvet-command", "peoples-data", "peoples-data-1"]);
    expect(prose("see `[x](nowhere.md)` and\n```\n[y](nowhere.md)\n```\n")).not.toContain(
      "nowhere",
    );
    const text =
      "[a](api.md#no-such-heading) [b](missing.md) [c](api.md#answers) [d](#here) [e](#gone)\n" +
      "[f](https://example.com/x.md) [g](../openapi/openapi.yaml)\n## Here\n";
    const links = brokenLinksIn(join(root, "docs", "virtual.md"), text).map((b) => b.link);
    expect(links).toEqual(["api.md#no-such-heading", "missing.md", "#gone"]);
  });
});
