/**
 * What use cases and routes receive: built once in `main.ts`, replaced piecewise in tests.
 * Nothing in the codebase imports a singleton instead.
 */
import type { Logger } from "pino";
import type { Config } from "./config.js";
import type { Db } from "./db/connect.js";
import type { Clock } from "./lib/clock.js";

export interface Deps {
  config: Config;
  db: Db;
  clock: Clock;
  log: Logger;
}
