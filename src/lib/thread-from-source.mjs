// A worker thread's entry when Velvet runs from source (tsx, Vitest): Node 20 does not pass a
// parent's `--import tsx` loader hooks on to a worker thread, so the thread registers tsx
// itself, then loads the TypeScript module named by its last argument (start-thread.ts).
// The built program never uses this file.
import { register } from "tsx/esm/api";

register();
await import(process.argv[process.argv.length - 1]);
