import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The links of README.md and the docs/ files: a relative link must point at a file that exists
 * and, when it names an anchor (`file.md#section`, `#section`), at a heading that the target file
 * has, slugged as GitHub slugs headings.
 */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

export function markdownFiles(): string[] {
  const docs = join(root, "docs");
  const inDocs = readdirSync(docs)
    .filter((name) => name.endsWith(".md"))
    .map((name) => join(docs, name));
  return [join(root, "README.md"), ...inDocs];
}

/** The text outside fenced code blocks and inline code spans. */
export function prose(markdown: string): string {
  const lines: string[] = [];
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      lines.push("");
      continue;
    }
    lines.push(fenced ? "" : line.replace(/`[^`]*`/g, "code"));
  }
  return lines.join("\n");
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats -1, -2. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*```/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

export interface BrokenLink {
  file: string;
  link: string;
  problem: string;
}

export function brokenLinks(files: string[]): BrokenLink[] {
  return files.flatMap((file) => brokenLinksIn(file, readFileSync(file, "utf8")));
}

/** The broken links of one file's text (the file itself need not exist: links resolve from it). */
export function brokenLinksIn(file: string, text: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  for (const match of prose(text).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const link = match[1] ?? "";
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const [path = "", anchor] = link.split("#", 2);
    const own = path === "";
    const target = own ? file : resolve(dirname(file), decodeURIComponent(path));
    const name = relative(root, file);
    if (!own && !existsSync(target)) {
      broken.push({ file: name, link, problem: "no such file" });
      continue;
    }
    if (anchor === undefined || anchor === "") continue;
    if (!own && (statSync(target).isDirectory() || !target.endsWith(".md"))) {
      broken.push({ file: name, link, problem: "an anchor into a file that has no headings" });
      continue;
    }
    const headings = anchorsOf(own ? text : readFileSync(target, "utf8"));
    if (!headings.has(anchor))
      broken.push({
        file: name,
        link,
        problem: `no heading #${anchor} in ${relative(root, target)}`,
      });
  }
  return broken;
}
