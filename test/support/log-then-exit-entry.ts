/**
 * A process that logs through Velvet's process logger and then ends, for process-log.test.ts:
 * `natural` lets the event loop empty (as `velvet serve` does after a signal), `exit` calls
 * process.exit(0) (as a failed command does). Each line is logged on a later turn, the last one
 * just before the end, so every line is still gathered in memory when the process ends.
 */
import { createLogger } from "../../src/main.js";

const how = process.argv[2] === "exit" ? "exit" : "natural";
const log = createLogger({ logLevel: "info" });
log.info({ line: 1 }, "first");
setTimeout(() => {
  log.info({ line: 2 }, "second");
  setImmediate(() => {
    log.info({ line: 3 }, "last");
    if (how === "exit") process.exit(0);
  });
}, 20);
