/**
 * Dependencies for job tests: the real database of a test engine (migrated), a silent logger and
 * a clock the test moves by hand, plus a small polling wait for things that happen in the
 * background.
 */
import { pino } from "pino";
import type { AppDeps } from "../../src/app-deps.js";
import { type Config, loadConfig } from "../../src/config.js";
import type { Clock } from "../../src/lib/clock.js";
import { type BuildDepsOptions, buildDeps } from "../../src/main.js";
import type { TestDatabase } from "./databases.js";

export interface ManualClock extends Clock {
  set(t: number): void;
  advance(ms: number): void;
}

export function manualClock(start = Date.UTC(2025, 0, 1)): ManualClock {
  let t = start;
  return {
    now: () => t,
    set: (value) => {
      t = value;
    },
    advance: (ms) => {
      t += ms;
    },
  };
}

export interface OpenTestDepsOptions extends Pick<BuildDepsOptions, "clock" | "providers"> {
  env?: Record<string, string>;
}

export async function openTestDeps(
  database: TestDatabase,
  options: OpenTestDepsOptions = {},
): Promise<AppDeps> {
  const config: Config = {
    ...loadConfig({ LOG_LEVEL: "silent", ...options.env }),
    database: database.target,
  };
  return buildDeps({
    config,
    log: pino({ level: "silent" }),
    clock: options.clock,
    providers: options.providers,
  });
}

/** Polls until `check` is true; fails with `what` after `timeoutMs`. */
export async function waitFor(
  what: string,
  check: () => boolean | Promise<boolean>,
  timeoutMs = 10_000,
  stepMs = 20,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, stepMs));
  }
}
