import { pino } from "pino";
import type { AppDeps } from "../app-deps.js";
import { loadConfig } from "../config.js";
import { buildDeps, closeDeps } from "../main.js";
import { withLinkBase } from "./link-base.js";

/**
 * Runs an admin command against the configured database (migrated first), then closes it.
 * `providers: false` for a command that never calls a provider: no provider thread is started.
 */
export async function withDeps<T>(
  fn: (deps: AppDeps) => Promise<T>,
  options: { migrate?: boolean; providers?: boolean } = {},
): Promise<T> {
  const config = withLinkBase(loadConfig());
  // Admin commands keep stdout for their answer and stderr for one message: at the default
  // level they log nothing (a failure is said once, by the message); LOG_LEVEL=warn, debug or
  // trace asks for their log lines, on stderr.
  const log = pino(
    { level: config.logLevel === "info" ? "silent" : config.logLevel },
    pino.destination(2),
  );
  const deps = await buildDeps({
    config,
    log,
    migrate: options.migrate ?? true,
    providers: options.providers === false ? [] : undefined,
  });
  try {
    return await fn(deps);
  } finally {
    await closeDeps(deps);
  }
}
