#!/usr/bin/env node
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const entry = new URL("../dist/cli/index.js", import.meta.url);
if (!existsSync(fileURLToPath(entry))) {
  process.stderr.write("velvet: not built yet; run `npm install` (or `npm run build`) first\n");
  process.exit(1);
}
await import(entry.href);
