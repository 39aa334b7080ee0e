#!/usr/bin/env node
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// Checked before anything else is loaded: on an older Node the native SQLite module and the
// HTTP client crash or fail to load, with a message that says nothing of the cause.
const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const minimum = /^>=\s*(\d+)\.(\d+)/.exec(engines.node);
const [major, minor] = process.versions.node.split(".").map(Number);
if (minimum && (major < +minimum[1] || (major === +minimum[1] && minor < +minimum[2]))) {
  process.stderr.write(
    `velvet: Node.js ${process.versions.node} is not supported; Velvet needs Node.js ${minimum[1]}.${minimum[2]} or later (22 or 24 LTS): see "Node.js" in the README\n`,
  );
  process.exit(1);
}

const entry = new URL("../dist/cli/index.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write("velvet: not built yet; run `npm install` (or `npm run build`) first\n");
  process.exit(1);
}
await import(entry.href);
