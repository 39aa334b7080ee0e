/**
 * The `velvet` command as the person at the terminal can type it again: `velvet` when it is on
 * the PATH (installed, or `npm link`), else `node bin/velvet.js`, the path from where they
 * stand to the checkout's entry (a checkout has no `velvet` on its PATH). Used wherever a
 * command's output suggests another command.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

const ENTRY = fileURLToPath(new URL("../../bin/velvet.js", import.meta.url));

export function invokedAs(
  script: string | undefined = process.argv[1],
  cwd: string = process.cwd(),
): string {
  // A PATH entry (npm's bin link) is named `velvet`, without an extension.
  if (script !== undefined && path.basename(script) === "velvet") return "velvet";
  const relative = path.relative(cwd, ENTRY);
  const shown = relative.startsWith("..") || path.isAbsolute(relative) ? ENTRY : relative;
  return `node ${shown.includes(" ") ? JSON.stringify(shown) : shown}`;
}
