import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    pool: "forks",
    // Most of a test's time is spent waiting (on PostgreSQL, on loopback HTTP, on a spawned
    // `velvet`), so two test files run per core: vitest's default (one less than the cores)
    // would run the suite one file at a time on a two-core machine.
    maxWorkers: Math.max(2, os.availableParallelism() * 2),
    // The migrated databases tests copy (test/support/template-databases.ts).
    globalSetup: ["./test/support/template-setup.ts"],
    env: {
      // Node's code cache for the workers and every `velvet` they spawn: a process starts
      // without compiling its modules again.
      NODE_COMPILE_CACHE: path.join(os.tmpdir(), "velvet-test-compile-cache"),
    },
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});
