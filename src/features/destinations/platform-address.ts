/**
 * Where a destination kind that calls a platform finds it: the variable its declaration names
 * (`baseUrl.env`, such as KLAVIYO_BASE_URL), or the platform's own address when it is unset,
 * without a trailing slash. Read when the drivers are built at start (main.ts), so a bad URL
 * stops the start with a message naming the variable, as config.ts does for its own.
 */
import { z } from "zod";
import { type Config, ConfigError } from "../../config.js";
import type { DestinationDeclaration } from "./destination-declaration.js";

type WithAddress = DestinationDeclaration & Required<Pick<DestinationDeclaration, "baseUrl">>;

export function platformAddress(config: Pick<Config, "env">, declaration: WithAddress): string {
  const { env, default: address } = declaration.baseUrl;
  const parsed = z
    .string()
    .url()
    .safeParse(config.env[env] ?? address);
  if (!parsed.success) {
    const why = parsed.error.issues.map((i) => i.message).join("; ");
    throw new ConfigError(`Invalid configuration:\n  ${env}: ${why}`);
  }
  return parsed.data.replace(/\/+$/, "");
}
