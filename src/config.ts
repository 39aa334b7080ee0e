/**
 * The one reader of process.env. Every setting is parsed and validated once, at start; a bad
 * value stops the start with a message naming the variable.
 */
import path from "node:path";
import { z } from "zod";

const boolish = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes");

const decimalUsd = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,6})?$/, "must be a non-negative decimal such as 0.05");

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  ENRICHMENT_PRICE_USD: decimalUsd.default("0.05"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  TRUST_PROXY: boolish.default(false),
});

export type DatabaseTarget =
  | { kind: "sqlite"; file: string }
  | { kind: "postgres"; url: string; poolMax: number };

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  enrichmentPriceUsd: string;
  logLevel: z.infer<typeof ConfigSchema>["LOG_LEVEL"];
  publicBaseUrl: string;
  trustProxy: boolean;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

export function databaseTargetFromUrl(url: string | undefined, poolMax = 10): DatabaseTarget {
  if (url === undefined || url.trim() === "") {
    return { kind: "sqlite", file: path.resolve("data", "velvet.db") };
  }
  if (/^postgres(ql)?:\/\//i.test(url)) return { kind: "postgres", url, poolMax };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith("file://")) {
    throw new ConfigError(
      `DATABASE_URL: unsupported scheme in "${url.split("://")[0]}://…"; use a file path or postgres://`,
    );
  }
  const file = url.startsWith("file://") ? new URL(url).pathname : url;
  return { kind: "sqlite", file: file === ":memory:" ? file : path.resolve(file) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://${hostForUrl(e.HOST)}:${e.PORT}`).replace(
    /\/+$/,
    "",
  );
  return {
    port: e.PORT,
    host: e.HOST,
    database: databaseTargetFromUrl(e.DATABASE_URL, e.DATABASE_POOL_MAX),
    enrichmentPriceUsd: e.ENRICHMENT_PRICE_USD,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl,
    trustProxy: e.TRUST_PROXY,
  };
}

function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}
