/**
 * The one reader of process.env. Every setting is parsed and validated once, at start; a bad
 * value stops the start with a message naming the variable.
 */
import { z } from "zod";
import { ConfigError } from "./config-error.js";
import { type DatabaseTarget, databaseTargetFromUrl } from "./database-target.js";
import { boolish, decimalUsd } from "./env-values.js";
import {
  allProviderSettings,
  type ProviderSettingsByName,
  providerVariables,
} from "./features/enrichment/providers/provider-settings.js";
import { versionReleasedAt } from "./lib/api-version-lifecycle.js";
import { parseTrustProxy, type TrustProxy } from "./parse-trust-proxy.js";

const ConfigSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  DATABASE_URL: z.string().optional(),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(500).default(10),
  // A pooler between Velvet and PostgreSQL (database-target.ts).
  DATABASE_POOLER_MODE: z.enum(["session", "transaction"]).optional(),
  DATABASE_PREPARED_STATEMENTS: z
    .enum(["on", "off", "true", "false", "1", "0", "yes", "no"])
    .transform((v) => v === "on" || v === "true" || v === "1" || v === "yes")
    .optional(),
  DATABASE_DIRECT_URL: z.string().optional(),
  SQLITE_BUSY_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(5000),
  ENRICHMENT_PRICE_USD: decimalUsd.default("0.05"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  PUBLIC_BASE_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().optional(),
  SIGNUP: z.enum(["open", "closed"]).optional(),

  // Operations: the private metrics listener (off unless METRICS_PORT is set) and API limits.
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().min(1).default("127.0.0.1"),
  API_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(10_000_000).default(6000),

  // The job worker (inside `velvet serve`, or alone as `velvet worker`).
  WORKER_ENABLED: boolish.default(true),
  // `velvet serve` runs its worker on a thread of its own (off the thread that answers orders).
  WORKER_THREAD: boolish.default(true),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  WORKER_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(200),
  WORKER_IDLE_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(600_000).default(5000),
  JOB_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(60_000),
  ENRICHMENT_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),

  // Enrichment providers: each is on only when configured.
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  PROVIDER_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(50),
  CIRCUIT_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  CIRCUIT_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  // Each registered provider's <PREFIX>_API_KEY, _BASE_URL, _RATE_LIMIT_PER_MIN and _PRICE_USD,
  // _ENABLED for one a flag turns on, and the variables of its own, as its declaration says
  // (features/enrichment/providers/; docs/configuration.md gives the prices' sources).
  ...providerVariables(),

  // VIP alerts.
  SMTP_URL: z.string().url().optional(),
  ALERT_FROM: z.string().min(3).default("Velvet <alerts@velvet.localhost>"),
  WEBHOOKS_ALLOW_PRIVATE: boolish.default(false),

  // People's data: how long providers' raw answers and inactive customers are kept.
  PROVIDER_DATA_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  CUSTOMER_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).optional(),

  // Store connections (Shopify, WooCommerce): how often each is synced, and the key that
  // encrypts their credentials at rest.
  STORE_SYNC_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(60),
  // While a store's webhooks deliver, polling only reconciles: this much apart.
  STORE_RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
  STORE_TOKEN_KEY: z
    .string()
    .refine((v) => storeTokenKey(v) !== null, {
      message: "must be 32 bytes, as 64 hex digits or base64 (openssl rand -base64 32)",
    })
    .optional(),

  // Exchange rates: whether the worker downloads the ECB's reference rates each day (an
  // outbound call, off unless allowed), and from where (tests point it at a fake).
  ECB_RATES_REFRESH: boolish.default(false),
  ECB_RATES_URL: z
    .string()
    .url()
    .default("https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml"),

  // The dated API versions Velvet speaks: Klaviyo's newest GA revision and Shopify's newest
  // stable Admin API version as of November 2026 (each platform's changelog).
  KLAVIYO_REVISION: z
    .string()
    .refine((v) => /^\d{4}-\d{2}-\d{2}$/.test(v) && versionReleasedAt(v) !== null, {
      message: "must be a Klaviyo revision date, YYYY-MM-DD (such as 2026-10-15)",
    })
    .default("2026-10-15"),
  SHOPIFY_API_VERSION: z
    .string()
    .refine((v) => /^\d{4}-(01|04|07|10)$/.test(v), {
      message:
        "must be a Shopify Admin API version, YYYY-MM with a quarter's first month (such as 2026-10)",
    })
    .default("2026-10"),
});

export interface Config {
  /**
   * The environment as given, empty values left out. A destination kind declares its platform's
   * address variable beside its driver (`baseUrl` in its declaration) and its driver reads it
   * from here (features/destinations/platform-address.ts), checked when the drivers are built
   * at start; every other variable is read and checked below.
   */
  env: Readonly<Record<string, string>>;
  port: number;
  host: string;
  database: DatabaseTarget;
  enrichmentPriceUsd: string;
  logLevel: z.infer<typeof ConfigSchema>["LOG_LEVEL"];
  publicBaseUrl: string;
  /** false: PUBLIC_BASE_URL is not set and publicBaseUrl is the listener's own address. */
  publicBaseUrlSet: boolean;
  /**
   * Fastify's trustProxy: false (none), the number of proxy hops in front, or the proxies'
   * addresses and CIDRs. Never `true`, which would trust every X-Forwarded-For entry.
   */
  trustProxy: TrustProxy;
  /**
   * Who may sign up in the dashboard: `first-account` (SIGNUP unset: only while no account
   * exists), `closed`, or `open` (anyone, with e-mail verification; needs SMTP_URL).
   */
  signup: SignupMode;
  /** The Prometheus listener; `port: null` turns metrics off (nothing is collected). */
  metrics: { port: number | null; host: string };
  /** Requests a minute per API key on POST /api/v1/orders; 0 turns the limit off. */
  apiRateLimitPerMinute: number;
  worker: {
    enabled: boolean;
    /** `velvet serve`: the worker on its own thread (worker-thread.ts) rather than the serving one. */
    thread: boolean;
    concurrency: number;
    pollIntervalMs: number;
    /** PostgreSQL: idle polling while LISTEN/NOTIFY wake-ups arrive (polling is the fallback). */
    idlePollIntervalMs: number;
    leaseMs: number;
  };
  enrichment: {
    maxAttempts: number;
    timeoutMs: number;
    concurrency: number;
    breakerFailures: number;
    breakerCooldownMs: number;
  } & ProviderSettingsByName;
  alerts: {
    smtpUrl: string | null;
    from: string;
    allowPrivateWebhooks: boolean;
  };
  storeSync: {
    intervalMs: number;
    /** Polling's interval while the connection's webhooks deliver (reconciliation). */
    reconcileIntervalMs: number;
    /** AES-256 key for stored store credentials; null: connecting a store is refused. */
    tokenKey: Buffer | null;
    /** The Shopify Admin API version in every Shopify URL (sync and the Shopify destination). */
    shopifyApiVersion: string;
  };
  destinations: {
    /** The `revision` header of every Klaviyo request. */
    klaviyoRevision: string;
  };
  exchangeRates: {
    /** ECB_RATES_REFRESH: the daily job downloads the ECB's rates (off: no outbound call). */
    refresh: boolean;
    /** Where `velvet data refresh-rates` and the daily job read the ECB's daily XML. */
    url: string;
  };
  retention: {
    providerDataDays: number;
    /** Null: customers are kept until erased. */
    customerDays: number | null;
  };
}

export type SignupMode = "first-account" | "closed" | "open";

export { ConfigError } from "./config-error.js";
export type { DatabaseTarget, PoolerMode, PostgresTarget } from "./database-target.js";
export { databaseTargetFromUrl, postgresSessionRules, sessionUrl } from "./database-target.js";
export type { ProviderSettings } from "./features/enrichment/providers/provider-settings.js";
export type { TrustProxy } from "./parse-trust-proxy.js";

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable (`PORT=` in an env file) means unset: without this, PORT= would coerce
  // to 0 (a random port) and SMTP_URL= would be refused as an invalid URL.
  const set = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ""),
  );
  const parsed = ConfigSchema.safeParse(set);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const e = parsed.data;
  const providers = allProviderSettings(e);
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://${hostForUrl(e.HOST)}:${e.PORT}`).replace(
    /\/+$/,
    "",
  );
  return {
    env: Object.freeze(set) as Readonly<Record<string, string>>,
    port: e.PORT,
    host: e.HOST,
    database: databaseTargetFromUrl(e.DATABASE_URL, e.DATABASE_POOL_MAX, e.SQLITE_BUSY_TIMEOUT_MS, {
      poolerMode: e.DATABASE_POOLER_MODE,
      preparedStatements: e.DATABASE_PREPARED_STATEMENTS,
      directUrl: e.DATABASE_DIRECT_URL,
    }),
    enrichmentPriceUsd: e.ENRICHMENT_PRICE_USD,
    logLevel: e.LOG_LEVEL,
    publicBaseUrl,
    publicBaseUrlSet: e.PUBLIC_BASE_URL !== undefined,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    signup: signupMode(e.SIGNUP, e.SMTP_URL),
    metrics: { port: e.METRICS_PORT ?? null, host: e.METRICS_HOST },
    apiRateLimitPerMinute: e.API_RATE_LIMIT_PER_MINUTE,
    worker: {
      enabled: e.WORKER_ENABLED,
      thread: e.WORKER_THREAD,
      concurrency: e.WORKER_CONCURRENCY,
      pollIntervalMs: e.WORKER_POLL_INTERVAL_MS,
      idlePollIntervalMs: e.WORKER_IDLE_POLL_INTERVAL_MS,
      leaseMs: e.JOB_LEASE_MS,
    },
    enrichment: {
      maxAttempts: e.ENRICHMENT_MAX_ATTEMPTS,
      timeoutMs: e.PROVIDER_TIMEOUT_MS,
      concurrency: e.PROVIDER_CONCURRENCY,
      breakerFailures: e.CIRCUIT_BREAKER_FAILURES,
      breakerCooldownMs: e.CIRCUIT_BREAKER_COOLDOWN_MS,
      ...providers,
    },
    alerts: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.ALERT_FROM,
      allowPrivateWebhooks: e.WEBHOOKS_ALLOW_PRIVATE,
    },
    storeSync: {
      intervalMs: e.STORE_SYNC_INTERVAL_SECONDS * 1000,
      reconcileIntervalMs: e.STORE_RECONCILE_INTERVAL_SECONDS * 1000,
      tokenKey: e.STORE_TOKEN_KEY === undefined ? null : storeTokenKey(e.STORE_TOKEN_KEY),
      shopifyApiVersion: e.SHOPIFY_API_VERSION,
    },
    destinations: {
      klaviyoRevision: e.KLAVIYO_REVISION,
    },
    exchangeRates: { refresh: e.ECB_RATES_REFRESH, url: e.ECB_RATES_URL },
    retention: {
      providerDataDays: e.PROVIDER_DATA_RETENTION_DAYS,
      customerDays: e.CUSTOMER_RETENTION_DAYS ?? null,
    },
  };
}

/** STORE_TOKEN_KEY: 32 bytes written as 64 hex digits or base64; null when it is neither. */
function storeTokenKey(text: string): Buffer | null {
  const v = text.trim();
  if (/^[0-9a-f]{64}$/i.test(v)) return Buffer.from(v, "hex");
  if (!/^[A-Za-z0-9+/]{43}=?$/.test(v)) return null;
  const key = Buffer.from(v, "base64");
  return key.length === 32 ? key : null;
}

function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "localhost";
  return host.includes(":") ? `[${host}]` : host;
}

function signupMode(value: "open" | "closed" | undefined, smtpUrl: string | undefined): SignupMode {
  if (value === undefined) return "first-account";
  if (value === "open" && smtpUrl === undefined) {
    throw new ConfigError(
      "SIGNUP=open needs SMTP_URL: open sign-up verifies each new address by e-mail. Set SMTP_URL, or leave SIGNUP unset (only the first account signs up) or SIGNUP=closed.",
    );
  }
  return value;
}
